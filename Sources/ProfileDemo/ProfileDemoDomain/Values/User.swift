import Foundation

/// A person: what every list and profile shows of them.
public struct User: Sendable, Hashable, Codable, Identifiable {
    public var id: UserID
    /// The display name; may be empty (modules show a default).
    public var name: String
    /// Where the avatar image is, if the user has one.
    public var avatarURL: String?
    /// A line about themselves; may be empty (modules show a default).
    public var summary: String

    public init(id: UserID, name: String, avatarURL: String? = nil, summary: String = "") {
        self.id = id
        self.name = name
        self.avatarURL = avatarURL
        self.summary = summary
    }
}

/// A user with the counts and the viewer's relationship a profile shows.
public struct UserProfile: Sendable, Hashable {
    /// The most characters a summary may have.
    public static let longestSummary = 500

    public var user: User
    public var blogCount: Int
    public var friendCount: Int
    public var followerCount: Int
    public var followingCount: Int
    /// Whether the viewer follows this user; `nil` when signed out or looking at themselves.
    public var viewerFollows: Bool?

    public init(user: User, blogCount: Int, friendCount: Int, followerCount: Int, followingCount: Int, viewerFollows: Bool?) {
        self.user = user
        self.blogCount = blogCount
        self.friendCount = friendCount
        self.followerCount = followerCount
        self.followingCount = followingCount
        self.viewerFollows = viewerFollows
    }
}
