import Foundation
import ProfileDemo
import ProfileDemoBlogs
import ProfileDemoDomain
import ProfileDemoStore
import Scenery
import SceneryFaults
import SceneryTesting
import Synchronization
import Testing

/// A blog service whose reads take 30 seconds, recording how each ended.
final class SlowBlogs: BlogService {
    let base: any BlogService
    private let state = Locked<(started: Bool, outcome: String?)>((false, nil))
    init(base: any BlogService) { self.base = base }
    var started: Bool { state.withLock { $0.started } }
    var outcome: String? { state.withLock { $0.outcome } }

    func blogs(by author: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<Blog> {
        state.withLock { $0.started = true }
        do {
            try await Task.sleep(for: .seconds(30))
        } catch {
            state.withLock { $0.outcome = "cancelled" }
            throw error
        }
        state.withLock { $0.outcome = "finished" }
        return try await base.blogs(by: author, viewer: viewer, page: page)
    }

    func blog(_ id: BlogID, viewer: UserID?) async throws -> Blog { try await base.blog(id, viewer: viewer) }
    func setLiked(_ liked: Bool, blog: BlogID, by user: UserID) async throws -> Int { try await base.setLiked(liked, blog: blog, by: user) }
}

/// A hang guard, not a timing: under the thread sanitizer, with every suite making its
/// PostgreSQL databases at once, a case on PostgreSQL took 85 s.
@Suite(.timeLimit(.minutes(5))) struct ConcurrencyAndFaultTests {
    /// 100 users and one blog, on `kind`'s store.
    static func crowd(on kind: StoreKind) async throws -> any ProfileDatabase {
        let store = try await kind.emptyStore()
        let users = (1...100).map { User(id: UserID("\($0)"), name: "User \($0)") }
        try await store.importData(
            ProfileDataSet(users: users, blogs: [.init(id: 1, author: "1", title: "Popular", body: "", createdAt: Date(timeIntervalSince1970: 0))]))
        return store
    }

    /// Runs `write` for each user at once; the users for whom it succeeded, and the errors.
    /// A write may fail when the store is busy (PostgreSQL under the thread sanitizer: a call
    /// waits at most ten seconds for a connection), but only with a kind that says to try
    /// again, and a failed write changes nothing.
    static func atOnce(
        _ users: [Int], _ write: @escaping @Sendable (UserID) async throws -> Void
    ) async -> (succeeded: Set<Int>, errors: [ProfileError]) {
        await withTaskGroup(of: (Int, ProfileError?).self) { group in
            for user in users {
                group.addTask {
                    do {
                        try await write(UserID("\(user)"))
                        return (user, nil)
                    } catch {
                        return (user, error as? ProfileError ?? ProfileError.storage("\(error)"))
                    }
                }
            }
            return await group.reduce(into: (Set<Int>(), [ProfileError]())) { result, outcome in
                if let error = outcome.1 { result.errors.append(error) } else { result.succeeded.insert(outcome.0) }
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func aHundredConcurrentLikesLeaveExactlyTheRightCount(kind: StoreKind) async throws {
        let store = try await Self.crowd(on: kind)
        // Every user likes twice at once (a double tap).
        let likes = await Self.atOnce(Array(1...100) + Array(1...100)) { user in _ = try await store.setLiked(true, blog: 1, by: user) }
        #expect(likes.errors.allSatisfy { $0.kind == .connectionLost || $0.kind == .conflict }, "\(likes.errors)")
        #expect(
            try await store.blog(1, viewer: nil).likes == likes.succeeded.count,
            "\(likes.errors.count) likes failed: \(likes.errors.first.map { "\($0)" } ?? "")")
        let unlikes = await Self.atOnce(Array(stride(from: 2, through: 100, by: 2))) { user in _ = try await store.setLiked(false, blog: 1, by: user) }
        #expect(unlikes.errors.allSatisfy { $0.kind == .connectionLost || $0.kind == .conflict }, "\(unlikes.errors)")
        #expect(try await store.blog(1, viewer: nil).likes == likes.succeeded.subtracting(unlikes.succeeded).count)
        if kind == .sqlite { #expect(likes.errors.isEmpty && unlikes.errors.isEmpty, "SQLite waits for its lock: nothing fails") }
    }

    /// On SQLite only: the runtime's path is the same on both stores, and on PostgreSQL a
    /// like may fail when the store is busy (see `atOnce`), which a module shows as a notice.
    @Test(.drivesModulesAsAHost) func aHundredModulesLikingAtOnceThroughTheRuntime() async throws {
        let store = try await Self.crowd(on: .sqlite)
        let modules = try (1...100).map { user in
            try BlogModule(
                parameters: parameters(for: BlogModule.descriptor, ["author": "1"]), context: ModuleContext(id: "blogs", viewer: "\(user)"),
                blogs: store)
        }
        for module in modules { try await module.load(.initial) }
        await withTaskGroup(of: Void.self) { group in
            for module in modules {
                group.addTask { _ = await module.handle(Event("blog.like", from: "blog.1.like", payload: ["blog": 1, "liked": true])) }
            }
        }
        #expect(try await store.blog(1, viewer: nil).likes == 100)
    }

    @Test func leavingCancelsFetchesMidFlightAndNothingArrivesAfter() async throws {
        let store = try SQLiteProfileStore.inMemory()
        let blogs = SlowBlogs(base: store)
        let registry = try Backend.registry(ProfileServices(profiles: store, blogs: blogs, drafts: store, relationships: store))
        let host = RecordingHost()
        let scene = try registry.instantiate("user-profile", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: host)
        _ = await scene.takeBaseline()  // the host shows the loading state
        host.reset()
        let loading = Task { await scene.start() }
        while !blogs.started { await Task.yield() }
        await scene.leave()
        let updatesAtLeave = host.updates.count  // the info module may have finished before
        await loading.value
        // Observed, not timed: the 30-second fetch ended because it was cancelled.
        while blogs.outcome == nil { await Task.yield() }
        #expect(blogs.outcome == "cancelled")
        #expect(host.updates.count == updatesAtLeave, "nothing arrives after leaving")
        #expect(await scene.send(Event("blog.open", from: "blogs/blog.1", payload: ["blog": 1])).result == .ignored)
    }

    @Test(arguments: StoreKind.allCases) func aFailedWriteRollsBackAndTheDatabaseIsUnchanged(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let before = try await backend.database.exportData()
        backend.injector.currentPlan = FaultPlan([.fail(.blogs, operations: [.write]), .fail(.relationships, operations: [.write])])
        let registry = try backend.registry()
        try await SceneScript(
            "user-profile", context: SceneContext(viewer: "2", arguments: ["user": "1"]), registry: registry,
            steps: [
                .tap("blogs/blog.26.like"),
                .expect(.shows("Couldn't like “A mad tea party, part 3”")),
                .tap("info/follow", answering: [true]),
                .expect(.shows("Couldn't unfollow Alice Liddell")),
                .expect(.shows("Unfollow")),
            ]
        ).run()
        #expect(try await backend.database.exportData() == before)
    }
}
