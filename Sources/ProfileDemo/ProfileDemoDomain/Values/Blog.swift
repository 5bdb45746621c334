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
///
/// Each save makes a new ``version``: an edit names the version it started from, and a
/// store refuses it when another save came between (``DraftEdit``), so two tabs never lose
/// each other's text silently.
public struct Draft: Sendable, Hashable, Codable, Identifiable {
    public var id: Int64
    public var owner: UserID
    public var title: String
    public var body: String
    public var editedAt: Date
    /// How many times the draft was saved: 1 when new.
    public var version: Int

    public init(id: Int64, owner: UserID, title: String, body: String = "", editedAt: Date, version: Int = 1) {
        self.id = id
        self.owner = owner
        self.title = title
        self.body = body
        self.editedAt = editedAt
        self.version = version
    }

    private enum CodingKeys: String, CodingKey {
        case id, owner, title, body, editedAt, version
    }

    /// Reads a draft; one without `version` (data sets written before drafts had versions)
    /// is at version 1.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(Int64.self, forKey: .id)
        owner = try container.decode(UserID.self, forKey: .owner)
        title = try container.decode(String.self, forKey: .title)
        body = try container.decodeIfPresent(String.self, forKey: .body) ?? ""
        editedAt = try container.decode(Date.self, forKey: .editedAt)
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
    }
}

/// What the owner typed into a draft, to save: a new draft (``draft`` is `nil`) or a newer
/// text of one, naming the ``version`` it was opened at.
///
/// It is also what the draft editor's form submits (`draft.save`): the form's own payload
/// names the draft and version, its fields add the title and body.
///
/// ```swift
/// let saved = try await drafts.save(DraftEdit(title: "Tea", body: "…"), by: owner)
/// let again = try await drafts.save(DraftEdit(draft: saved.id, version: saved.version, title: "Tea party", body: "…"), by: owner)
/// ```
public struct DraftEdit: Sendable, Hashable, Codable {
    /// The draft edited; `nil` for a new one.
    public var draft: Int64?
    /// The version the editor opened; a save is refused when the stored one differs.
    public var version: Int?
    public var title: String
    public var body: String

    public init(draft: Int64? = nil, version: Int? = nil, title: String, body: String) {
        self.draft = draft
        self.version = version
        self.title = title
        self.body = body
    }
}
