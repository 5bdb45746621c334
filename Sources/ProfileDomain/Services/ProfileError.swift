import Foundation
import Scenery

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
    /// Imported data is unusable; each problem names its JSON path.
    case invalidData([DataProblem])

    /// Whether the error says a user or blog does not exist: asking again will not help.
    public var isNotFound: Bool {
        switch self {
        case .userNotFound, .blogNotFound: true
        case .notPermitted, .storage, .invalidData: false
        }
    }

    public var errorDescription: String? {
        switch self {
        case .userNotFound(let id): "No user with id \(id.rawValue.quoted) exists."
        case .blogNotFound(let id): "No blog with id \(id) exists."
        case .notPermitted(let message): message
        case .storage(let message): "The database failed: \(message)"
        case .invalidData(let problems):
            problems.count == 1
                ? "The data is invalid: \(problems[0]); nothing was imported."
                : "The data has \(problems.count) problems; nothing was imported:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
        }
    }
}

/// One problem in a data file: where (a JSON path such as `blogs[3].author`) and what.
public struct DataProblem: Sendable, Hashable, CustomStringConvertible {
    /// The JSON path of the offending value; empty for the whole file.
    public var path: String
    /// What is wrong and how to fix it.
    public var message: String

    public init(path: String, message: String) {
        self.path = path
        self.message = message
    }

    public var description: String { path.isEmpty ? message : "\(path): \(message)" }
}
