import SceneryLive

/// How the stores record profile changes (the `changes` table, PostgreSQL's notifications).
extension ProfileChange: RecordedEntity {
    /// The profile demo's app name.
    public static let app = "profile"

    public var record: (kind: String, id: String) {
        switch self {
        case .blog(let id): ("blog", id.description)
        case .blogs(let author): ("blogs", author.rawValue)
        case .profile(let user): ("profile", user.rawValue)
        case .relationships(let user): ("relationships", user.rawValue)
        case .drafts(let owner): ("drafts", owner.rawValue)
        case .everything: ("everything", "")
        }
    }

    public init?(kind: String, id: String) {
        switch kind {
        case "blog":
            guard let blog = BlogID(id) else { return nil }
            self = .blog(blog)
        case "blogs": self = .blogs(of: UserID(id))
        case "profile": self = .profile(UserID(id))
        case "relationships": self = .relationships(of: UserID(id))
        case "drafts": self = .drafts(of: UserID(id))
        case "everything": self = .everything
        default: return nil
        }
    }
}
