import Scenery
import SceneryLive

/// Reads a user's profile.
public protocol ProfileService: Sendable {
    /// The user with counts and the viewer's relationship.
    /// - Throws: `ProfileError.userNotFound(_:)` for an unknown id.
    func profile(of user: UserID, viewer: UserID?) async throws -> UserProfile

    /// Replaces a user's summary (the line under their name), by the user themselves;
    /// announces `ProfileChange.profile(user)`.
    /// - Throws: `notPermitted` when `editor` is not `user`, or the summary is longer than
    ///   ``UserProfile/longestSummary`` characters; `userNotFound` for an unknown user.
    func setSummary(_ summary: String, of user: UserID, by editor: UserID) async throws
}

extension ProfileService {
    /// A backend that only reads profiles: editing a summary says so.
    public func setSummary(_ summary: String, of user: UserID, by editor: UserID) async throws {
        throw ProfileError.notPermitted(
            "This profile service only reads profiles; give the app a backend that saves them (SQLiteProfileStore or PostgresProfileStore).")
    }

    /// What a summary edit is refused for, before any store is asked; `nil` when it is allowed.
    public static func problem(setting summary: String, of user: UserID, by editor: UserID) -> ProfileError? {
        guard editor == user else { return .notPermitted("Only \(user.rawValue.quoted) can change their own summary.") }
        if let problem = TextField.lengthProblem(of: summary, atMost: UserProfile.longestSummary, label: "A summary")
            ?? TextField.markProblem(in: summary, label: "A summary")
        {
            return .notPermitted(problem)
        }
        return nil
    }
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

/// Reads and writes drafts, which belong to their owner alone.
///
/// Every write names the owner doing it and announces `ProfileChange.drafts(of:)` (a
/// publish also the owner's blogs and profile), in the write's transaction. A write is
/// applied once per action (the action's key), so a page that sends it again changes
/// nothing twice.
public protocol DraftService: Sendable {
    /// A page of the owner's drafts, most recently edited first.
    /// - Throws: `ProfileError.notPermitted(_:)` when `viewer` is not `owner`.
    func drafts(of owner: UserID, viewer: UserID, page: PageRequest) async throws -> Page<Draft>

    /// Saves a new draft of `owner`'s, or a newer text of one of theirs; returns it as
    /// stored, at its new version.
    /// - Throws: `DataError.outdated(_:)` when the draft's stored version is not
    ///   `edit.version` (it was saved elsewhere meanwhile; nothing is written),
    ///   `notFound` when `owner` has no such draft.
    func save(_ edit: DraftEdit, by owner: UserID) async throws -> Draft

    /// Deletes one of `owner`'s drafts, if it is still at `version`.
    /// - Throws: `DataError.outdated(_:)` when it was saved elsewhere meanwhile, `notFound`
    ///   when `owner` has no such draft.
    func deleteDraft(_ id: Int64, version: Int, by owner: UserID) async throws

    /// Publishes one of `owner`'s drafts, if it is still at `version`: it becomes a blog
    /// (created now) and the draft is gone, in one transaction. Returns the new blog's id.
    /// - Throws: `DataError.outdated(_:)`, `notFound`, as ``deleteDraft(_:version:by:)``.
    func publishDraft(_ id: Int64, version: Int, by owner: UserID) async throws -> BlogID
}

extension DraftService {
    /// A backend that only reads drafts: saving says so.
    public func save(_ edit: DraftEdit, by owner: UserID) async throws -> Draft { throw Self.readOnly }
    /// A backend that only reads drafts: deleting says so.
    public func deleteDraft(_ id: Int64, version: Int, by owner: UserID) async throws { throw Self.readOnly }
    /// A backend that only reads drafts: publishing says so.
    public func publishDraft(_ id: Int64, version: Int, by owner: UserID) async throws -> BlogID { throw Self.readOnly }

    private static var readOnly: ProfileError {
        .notPermitted("This draft service only reads drafts; give the app a backend that saves them (SQLiteProfileStore or PostgresProfileStore).")
    }
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
