import ProfileDemoDomain
import SceneryTesting

extension ProfileServices {
    /// The same services with every read passing `gate` (writes go straight through), for
    /// `LiveModuleCheck`: a read can then return after a change or a write made meanwhile.
    func gatingReads(with gate: ReadGate) -> ProfileServices {
        ProfileServices(
            profiles: GatedProfiles(base: profiles, gate: gate), blogs: GatedBlogs(base: blogs, gate: gate),
            drafts: GatedDrafts(base: drafts, gate: gate), relationships: GatedRelationships(base: relationships, gate: gate),
            changes: changes)
    }
}

private struct GatedProfiles: ProfileService {
    let base: any ProfileService
    let gate: ReadGate

    func profile(of user: UserID, viewer: UserID?) async throws -> UserProfile {
        try await gate.read { try await base.profile(of: user, viewer: viewer) }
    }

    func setSummary(_ summary: String, of user: UserID, by editor: UserID) async throws {
        try await base.setSummary(summary, of: user, by: editor)
    }
}

private struct GatedBlogs: BlogService {
    let base: any BlogService
    let gate: ReadGate

    func blogs(by author: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<Blog> {
        try await gate.read { try await base.blogs(by: author, viewer: viewer, page: page) }
    }

    func blog(_ id: BlogID, viewer: UserID?) async throws -> Blog { try await gate.read { try await base.blog(id, viewer: viewer) } }

    func setLiked(_ liked: Bool, blog: BlogID, by user: UserID) async throws -> Int { try await base.setLiked(liked, blog: blog, by: user) }
}

private struct GatedDrafts: DraftService {
    let base: any DraftService
    let gate: ReadGate

    func drafts(of owner: UserID, viewer: UserID, page: PageRequest) async throws -> Page<Draft> {
        try await gate.read { try await base.drafts(of: owner, viewer: viewer, page: page) }
    }

    func save(_ edit: DraftEdit, by owner: UserID) async throws -> Draft { try await base.save(edit, by: owner) }
    func deleteDraft(_ id: Int64, version: Int, by owner: UserID) async throws { try await base.deleteDraft(id, version: version, by: owner) }
    func publishDraft(_ id: Int64, version: Int, by owner: UserID) async throws -> BlogID {
        try await base.publishDraft(id, version: version, by: owner)
    }
}

private struct GatedRelationships: RelationshipService {
    let base: any RelationshipService
    let gate: ReadGate

    func users(_ list: UserListKind, of user: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<UserListEntry> {
        try await gate.read { try await base.users(list, of: user, viewer: viewer, page: page) }
    }

    func setFollowing(_ following: Bool, follower: UserID, followee: UserID) async throws {
        try await base.setFollowing(following, follower: follower, followee: followee)
    }

    func changeFriendship(_ change: FriendshipChange, from user: UserID, with other: UserID) async throws -> FriendState {
        try await base.changeFriendship(change, from: user, with: other)
    }
}
