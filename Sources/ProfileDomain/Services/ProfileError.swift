import Foundation

/// What went wrong in a profile service, in words a person can act on.
public enum ProfileError: Error, Sendable, Hashable, LocalizedError {
    /// No user has the id.
    case userNotFound(UserID)
    /// No blog has the id.
    case blogNotFound(Int64)
    /// The viewer may not do or see this.
    case notPermitted(String)
    /// The store failed; the message says how.
    case storage(String)
    /// Imported data is inconsistent; the message names the record.
    case invalidData(String)
    /// A fault injected on purpose (tests, demos).
    case injected(String)

    public var errorDescription: String? {
        switch self {
        case .userNotFound(let id): "No user with id '\(id)' exists."
        case .blogNotFound(let id): "No blog with id \(id) exists."
        case .notPermitted(let message): message
        case .storage(let message): "The database failed: \(message)"
        case .invalidData(let message): message
        case .injected(let message): message
        }
    }
}
