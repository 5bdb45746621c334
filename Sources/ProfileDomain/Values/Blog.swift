import Foundation

/// A published blog post, as a viewer sees it.
public struct Blog: Sendable, Hashable, Identifiable {
    public var id: BlogID
    public var author: UserID
    /// The author's display name (may be empty).
    public var authorName: String
    public var title: String
    public var body: String
    public var likes: Int
    public var createdAt: Date
    /// Whether the viewer likes it (false when signed out).
    public var likedByViewer: Bool

    public init(
        id: BlogID, author: UserID, authorName: String, title: String, body: String, likes: Int, createdAt: Date,
        likedByViewer: Bool
    ) {
        self.id = id
        self.author = author
        self.authorName = authorName
        self.title = title
        self.body = body
        self.likes = likes
        self.createdAt = createdAt
        self.likedByViewer = likedByViewer
    }
}

/// An unpublished post, visible only to its owner.
public struct Draft: Sendable, Hashable, Codable, Identifiable {
    public var id: Int64
    public var owner: UserID
    public var title: String
    public var body: String
    public var editedAt: Date

    public init(id: Int64, owner: UserID, title: String, body: String = "", editedAt: Date) {
        self.id = id
        self.owner = owner
        self.title = title
        self.body = body
        self.editedAt = editedAt
    }
}
