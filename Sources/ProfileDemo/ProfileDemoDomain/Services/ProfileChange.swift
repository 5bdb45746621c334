import SceneryLive

/// Something in the profile data that changed: an entity and its id, never the data
/// itself (what a viewer sees of it is shaped per viewer, so each module fetches its own).
///
/// Stores announce changes in the same transaction as the write; modules that show an
/// entity subscribe to it while they are visible (`LiveChanges`, through a `ChangeFeed`).
///
/// ```swift
/// for await change in feed.changes(to: [.blog(26), .profile("1")]) {
///     // fetch what this module shows of `change` again
/// }
/// ```
public enum ProfileChange: LiveEntity {
    /// One blog: its likes or its text.
    case blog(BlogID)
    /// The list of an author's blogs: one added or removed.
    case blogs(of: UserID)
    /// A user's profile: name, summary or counts (followers, following, friends, blogs).
    case profile(UserID)
    /// A user's followers, followings or friends (and friend requests).
    case relationships(of: UserID)
    /// An owner's drafts. Private: only the owner's modules subscribe to it.
    case drafts(of: UserID)
    /// Anything may have changed (a whole import, or a feed that fell behind): every
    /// subscriber fetches what it shows again.
    case everything

    public var description: String {
        switch self {
        case .blog(let id): "blog \(id)"
        case .blogs(let author): "user \(author.rawValue)'s blogs"
        case .profile(let user): "user \(user.rawValue)'s profile"
        case .relationships(let user): "user \(user.rawValue)'s relationships"
        case .drafts(let owner): "user \(owner.rawValue)'s drafts"
        case .everything: "everything"
        }
    }
}
