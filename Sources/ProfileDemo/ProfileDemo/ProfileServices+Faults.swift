import ProfileDemoDomain
import Scenery
import SceneryFaults

extension ServiceName {
    /// `ProfileService`: profiles and the viewer's relationship to them.
    public static let profiles: ServiceName = "profiles"
    /// `BlogService`: blogs and likes.
    public static let blogs: ServiceName = "blogs"
    /// `DraftService`: the owner's drafts.
    public static let drafts: ServiceName = "drafts"
    /// `RelationshipService`: follows and friendships.
    public static let relationships: ServiceName = "relationships"
    /// The profile services, for tools that offer faults by name.
    public static let profileServices: [ServiceName] = [.profiles, .blogs, .drafts, .relationships]
}

extension ProfileServices {
    /// The same services with the injector's faults applied to every call.
    public func injectingFaults(from injector: FaultInjector) -> ProfileServices {
        ProfileServices(
            profiles: FaultyProfiles(base: profiles, injector: injector),
            blogs: FaultyBlogs(base: blogs, injector: injector),
            drafts: FaultyDrafts(base: drafts, injector: injector),
            relationships: FaultyRelationships(base: relationships, injector: injector), changes: changes)
    }
}

private struct FaultyProfiles: ProfileService {
    let base: any ProfileService
    let injector: FaultInjector

    func profile(of user: UserID, viewer: UserID?) async throws -> UserProfile {
        try await injector.apply(.profiles, .read)
        return try await base.profile(of: user, viewer: viewer)
    }

    func setSummary(_ summary: String, of user: UserID, by editor: UserID) async throws {
        try await injector.apply(.profiles, .write)
        try await base.setSummary(summary, of: user, by: editor)
    }
}

private struct FaultyBlogs: BlogService {
    let base: any BlogService
    let injector: FaultInjector

    func blogs(by author: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<Blog> {
        try await injector.apply(.blogs, .read)
        return try await base.blogs(by: author, viewer: viewer, page: page)
    }

    func blog(_ id: BlogID, viewer: UserID?) async throws -> Blog {
        try await injector.apply(.blogs, .read)
        return try await base.blog(id, viewer: viewer)
    }

    func setLiked(_ liked: Bool, blog: BlogID, by user: UserID) async throws -> Int {
        try await injector.apply(.blogs, .write)
        return try await base.setLiked(liked, blog: blog, by: user)
    }
}

private struct FaultyDrafts: DraftService {
    let base: any DraftService
    let injector: FaultInjector

    func drafts(of owner: UserID, viewer: UserID, page: PageRequest) async throws -> Page<Draft> {
        try await injector.apply(.drafts, .read)
        return try await base.drafts(of: owner, viewer: viewer, page: page)
    }

    func save(_ edit: DraftEdit, by owner: UserID) async throws -> Draft {
        try await injector.apply(.drafts, .write)
        return try await base.save(edit, by: owner)
    }

    func deleteDraft(_ id: Int64, version: Int, by owner: UserID) async throws {
        try await injector.apply(.drafts, .write)
        try await base.deleteDraft(id, version: version, by: owner)
    }

    func publishDraft(_ id: Int64, version: Int, by owner: UserID) async throws -> BlogID {
        try await injector.apply(.drafts, .write)
        return try await base.publishDraft(id, version: version, by: owner)
    }
}

private struct FaultyRelationships: RelationshipService {
    let base: any RelationshipService
    let injector: FaultInjector

    func users(_ list: UserListKind, of user: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<UserListEntry> {
        try await injector.apply(.relationships, .read)
        return try await base.users(list, of: user, viewer: viewer, page: page)
    }

    func setFollowing(_ following: Bool, follower: UserID, followee: UserID) async throws {
        try await injector.apply(.relationships, .write)
        try await base.setFollowing(following, follower: follower, followee: followee)
    }

    func changeFriendship(_ change: FriendshipChange, from user: UserID, with other: UserID) async throws -> FriendState {
        try await injector.apply(.relationships, .write)
        return try await base.changeFriendship(change, from: user, with: other)
    }
}
