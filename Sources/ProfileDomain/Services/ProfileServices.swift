import SceneryLive

/// Reads a user's profile.
public protocol ProfileService: Sendable {
    /// The user with counts and the viewer's relationship.
    /// - Throws: `ProfileError.userNotFound(_:)` for an unknown id.
    func profile(of user: UserID, viewer: UserID?) async throws -> UserProfile
}

/// Reads blogs and records likes.
public protocol BlogService: Sendable {
    /// A page of an author's blogs, newest first.
    func blogs(by author: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<Blog>
    /// One blog.
    /// - Throws: `ProfileError.blogNotFound(_:)` for an unknown id.
    func blog(_ id: BlogID, viewer: UserID?) async throws -> Blog
    /// Likes or unlikes a blog for a user; returns the blog's new like count.
    func setLiked(_ liked: Bool, blog: BlogID, by user: UserID) async throws -> Int
}

/// Reads drafts, which belong to their owner alone.
public protocol DraftService: Sendable {
    /// A page of the owner's drafts, most recently edited first.
    /// - Throws: `ProfileError.notPermitted(_:)` when `viewer` is not `owner`.
    func drafts(of owner: UserID, viewer: UserID, page: PageRequest) async throws -> Page<Draft>
}

/// Reads and changes who follows and befriends whom.
public protocol RelationshipService: Sendable {
    /// A page of the followers, followings or friends of a user, with the viewer's
    /// relationship to each. A user looking at their own friends also gets the people who
    /// asked to be their friend (``FriendState/incoming``); nobody else ever does.
    func users(_ list: UserListKind, of user: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<UserListEntry>
    /// Makes `follower` follow or stop following `followee`.
    func setFollowing(_ following: Bool, follower: UserID, followee: UserID) async throws
    /// Sends a friend request, accepts one, or ends a friendship or request.
    func changeFriendship(_ change: FriendshipChange, from user: UserID, with other: UserID) async throws -> FriendState
}

/// A change to a friendship, made by one of the two users.
public enum FriendshipChange: String, Sendable, Hashable, CaseIterable {
    /// Ask the other to be friends.
    case request
    /// Accept the other's request.
    case accept
    /// End the friendship, or withdraw or decline a request.
    case remove
}

/// The backend the profile modules use, one service per need, so a host can plug in its own.
public struct ProfileServices: Sendable {
    public var profiles: any ProfileService
    public var blogs: any BlogService
    public var drafts: any DraftService
    public var relationships: any RelationshipService
    /// Where modules learn that what they show changed, from any writer; `nil` for a backend
    /// that does not say (modules then show what they loaded until refreshed).
    public var changes: (any ChangeFeed<ProfileChange>)?

    public init(
        profiles: any ProfileService, blogs: any BlogService, drafts: any DraftService,
        relationships: any RelationshipService, changes: (any ChangeFeed<ProfileChange>)? = nil
    ) {
        self.profiles = profiles
        self.blogs = blogs
        self.drafts = drafts
        self.relationships = relationships
        self.changes = changes
    }

    /// All four services from one backend that provides them all.
    public init(_ backend: some ProfileService & BlogService & DraftService & RelationshipService) {
        self.init(profiles: backend, blogs: backend, drafts: backend, relationships: backend, changes: backend as? any ChangeFeed<ProfileChange>)
    }
}
