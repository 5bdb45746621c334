/// Where two users stand as friends, seen from the viewer.
public enum FriendState: String, Sendable, Hashable, Codable, CaseIterable {
    /// Not friends, no request either way.
    case none
    /// The viewer asked; the other has not answered.
    case requested
    /// The other asked the viewer; the viewer has not answered.
    case incoming
    /// Friends.
    case friends
}

/// Which list of users to show.
public enum UserListKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// People who follow the user.
    case followers
    /// People the user follows.
    case following
    /// The user's accepted friends.
    case friends
}

/// One row of a user list: the user and the viewer's relationship to them.
public struct UserListEntry: Sendable, Hashable, Identifiable {
    public var user: User
    /// Whether the viewer follows this user.
    public var viewerFollows: Bool
    /// Where the viewer and this user stand as friends.
    public var friendState: FriendState

    public var id: UserID { user.id }

    public init(user: User, viewerFollows: Bool, friendState: FriendState) {
        self.user = user
        self.viewerFollows = viewerFollows
        self.friendState = friendState
    }
}
