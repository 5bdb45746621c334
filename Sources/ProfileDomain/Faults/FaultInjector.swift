import Synchronization

/// Holds a ``FaultPlan`` that may change while services run (a test makes a service fail,
/// then recover), and applies it to calls.
public final class FaultInjector: Sendable {
    private let plan: Mutex<FaultPlan>

    public init(_ plan: FaultPlan = FaultPlan()) {
        self.plan = Mutex(plan)
    }

    /// The plan in force.
    public var currentPlan: FaultPlan {
        get { plan.withLock { $0 } }
        set { plan.withLock { $0 = newValue } }
    }

    /// Applies the faults for one call: waits for latencies, throws for failures.
    /// - Throws: ``ProfileError/injected(_:)``, or `CancellationError` while waiting.
    public func apply(_ service: ServiceKind, _ operation: OperationKind) async throws {
        for fault in plan.withLock({ $0.faults(for: service, operation) }) {
            switch fault {
            case .latency(let duration): try await Task.sleep(for: duration)
            case .failure(let message): throw ProfileError.injected(message)
            }
        }
    }
}

extension ProfileServices {
    /// The same services with the injector's faults applied to every call.
    public func injectingFaults(from injector: FaultInjector) -> ProfileServices {
        ProfileServices(
            profiles: FaultyProfiles(base: profiles, injector: injector),
            blogs: FaultyBlogs(base: blogs, injector: injector),
            drafts: FaultyDrafts(base: drafts, injector: injector),
            relationships: FaultyRelationships(base: relationships, injector: injector))
    }
}

private struct FaultyProfiles: ProfileService {
    let base: any ProfileService
    let injector: FaultInjector

    func profile(of user: UserID, viewer: UserID?) async throws -> UserProfile {
        try await injector.apply(.profiles, .read)
        return try await base.profile(of: user, viewer: viewer)
    }
}

private struct FaultyBlogs: BlogService {
    let base: any BlogService
    let injector: FaultInjector

    func blogs(by author: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<Blog> {
        try await injector.apply(.blogs, .read)
        return try await base.blogs(by: author, viewer: viewer, page: page)
    }

    func blog(_ id: Int64, viewer: UserID?) async throws -> Blog {
        try await injector.apply(.blogs, .read)
        return try await base.blog(id, viewer: viewer)
    }

    func setLiked(_ liked: Bool, blog: Int64, by user: UserID) async throws -> Int {
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
