import Foundation
import ProfileDemoDomain
import Scenery
import SceneryLive

/// A message signed in someone's guestbook.
public struct GuestbookMessage: Sendable, Hashable, Codable, Identifiable {
    public var id: Int64
    public var author: String
    public var text: String

    public init(id: Int64, author: String, text: String) {
        self.id = id
        self.author = author
        self.text = text
    }
}

/// What changes in the guestbook app: one person's book.
public enum GuestbookChange: LiveEntity, RecordedEntity {
    case book(String)
    case everything

    public static let app = "guestbook"
    public var description: String { record.kind + " " + record.id }
    public var record: (kind: String, id: String) {
        if case .book(let owner) = self { ("book", owner) } else { ("everything", "") }
    }
    public init?(kind: String, id: String) {
        guard kind == "book", !id.isEmpty else { return nil }
        self = .book(id)
    }
}

/// What the guestbook module calls; its changes are ``GuestbookChange``s.
public protocol GuestbookService: ChangeFeed where Entity == GuestbookChange {
    /// A page of `owner`'s book, newest first.
    func messages(in owner: String, page: PageRequest) async throws -> Page<GuestbookMessage>
    /// Signs `owner`'s book as `author`.
    func sign(_ owner: String, as author: String, text: String) async throws
    /// Deletes a message: `viewer` must be the book's owner (`DataError.notPermitted` otherwise).
    func delete(_ message: Int64, from owner: String, by viewer: String) async throws
}
