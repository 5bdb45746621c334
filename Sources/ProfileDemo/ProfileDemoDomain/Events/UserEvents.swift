import Scenery

/// The events the profile's user modules send, as values: the names scene files use, and
/// payloads the compiler checks. `UserInfoModule`, `UserListModule` and `BlogPostModule`
/// send them; scene rules confirm or route them.
///
/// ```json
/// { "on": "user.unfollow",
///   "confirm": { "title": "Unfollow $event.name?", "confirm": "Unfollow", "cancel": "Cancel" } }
/// ```
public enum UserEvents {
    /// What a relationship event carries: the person acted on, and their name for the
    /// scene's question (`Unfollow $event.name?`).
    public struct Person: Codable, Sendable, Hashable {
        public var user: UserID
        public var name: String

        public init(user: UserID, name: String) {
            self.user = user
            self.name = name
        }
    }

    /// What an event that leads to a user's page carries: the user.
    public struct Target: Codable, Sendable, Hashable {
        public var user: UserID

        public init(user: UserID) {
            self.user = user
        }
    }

    /// Follow the person; done by the module once the scene lets it through.
    public static let follow = EventKind("user.follow", payload: Person.self)
    /// Stop following the person; the bundled scenes ask first.
    public static let unfollow = EventKind("user.unfollow", payload: Person.self)
    /// Open the user (their avatar, a row of a list): the scenes navigate.
    public static let open = EventKind("user.open", payload: Target.self)
    /// Open the user's blogs.
    public static let blogs = EventKind("user.blogs", payload: Target.self)
    /// Open the user's friends.
    public static let friends = EventKind("user.friends", payload: Target.self)
    /// Open the user's followers.
    public static let followers = EventKind("user.followers", payload: Target.self)
    /// Ask the person to be friends.
    public static let requestFriendship = EventKind("friend.request", payload: Person.self)
    /// Accept the person's request to be friends.
    public static let acceptFriendship = EventKind("friend.accept", payload: Person.self)
    /// End a friendship; the bundled scenes ask first.
    public static let removeFriend = EventKind("friend.remove", payload: Person.self)
    /// What a summary edit carries: the summary typed into the profile's summary form.
    public struct Summary: Codable, Sendable, Hashable {
        public var summary: String

        public init(summary: String) { self.summary = summary }
    }

    /// Open the owner's summary editor (stays on their page).
    public static let editSummary = EventKind("summary.edit", payload: Target.self)
    /// Close the summary editor without saving (stays on their page).
    public static let cancelSummary = EventKind("summary.cancel", payload: Target.self)
    /// Save the owner's summary: the summary form's submit, owner-only.
    public static let saveSummary = EventKind("summary.save", payload: Summary.self)
    /// Take back a request to be friends.
    public static let withdrawFriendRequest = EventKind("friend.withdraw", payload: Person.self)
}
