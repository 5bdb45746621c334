/// Something in the profile data that changed: an entity and its id, never the data
/// itself (what a viewer sees of it is shaped per viewer, so each module fetches its own).
///
/// Stores announce changes in the same transaction as the write; modules that show an
/// entity subscribe to it while they are visible (``ProfileChangeFeed``).
///
/// ```swift
/// for await change in feed.changes(to: [.blog(26), .profile("1")]) {
///     // fetch what this module shows of `change` again
/// }
/// ```
public enum ProfileChange: Hashable, Sendable, CustomStringConvertible {
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

/// Where a module learns that the data it shows changed, from any writer: this process or
/// another one on the same database.
///
/// A subscription lasts until the task iterating it is cancelled; it receives only the
/// changes it asked for, and ``ProfileChange/everything``, merged by entity while it is busy
/// (see ``ProfileChanges``).
public protocol ProfileChangeFeed: Sendable {
    /// The changes to `entities` from now on. The subscription is open on return.
    func changes(to entities: Set<ProfileChange>) -> ProfileChanges

    /// The feed's position now, for ``hasChanged(_:since:)``; `nil` when the feed keeps no
    /// history (the default).
    var changeMark: Int? { get }

    /// Whether a change to one of `entities` (or ``ProfileChange/everything``) was published
    /// since `mark`; `true` when the feed no longer knows. A module that loaded before it
    /// followed anything (in a tab not yet shown) asks when it first follows.
    func hasChanged(_ entities: Set<ProfileChange>, since mark: Int) -> Bool
}

extension ProfileChangeFeed {
    /// No history: `nil`.
    public var changeMark: Int? { nil }

    /// No history: `true`.
    public func hasChanged(_ entities: Set<ProfileChange>, since mark: Int) -> Bool { true }
}
