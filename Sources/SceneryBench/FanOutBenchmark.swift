import Foundation
import ProfileDemo
import ProfileDemoDomain
import ProfileDemoScenes
import ProfileDemoStore
import Scenery
import Synchronization

/// Live data: one like reaching N open profile scenes that show its row (the time until
/// each scene's host has its update, and until the last one has), the store queries a
/// change costs, and the memory an idle scene costs with and without its subscriptions.
enum FanOutBenchmark {
    static let pageCounts = [100, 1000]
    static let likes = 10

    static func run(_ options: BenchmarkOptions) async throws -> Table {
        var table = Table(
            "Live data: one like reaching N open profile scenes",
            header: ["scenes", "like → each update p50", "p99", "→ last scene p50", "worst", "blog queries / like", "idle / scene, static", "live"])
        for count in pageCounts {
            let fanOut = try await measureFanOut(scenes: count, rounds: likes * options.roundScale)
            let memory = try [false, true].map { try probeInFreshProcess(live: $0, scenes: count) }
            table.add(
                count.formatted(), milliseconds(fanOut.each.median), milliseconds(percentile(fanOut.each, 0.99)),
                milliseconds(fanOut.last.median), milliseconds(fanOut.last.max() ?? .nan), String(format: "%.1f", fanOut.queriesPerLike),
                memory[0], memory[1])
        }
        table.notes.append(
            "Scenes of Alice's profile for five viewers in turn (four signed in, one signed out), each with a host that keeps the updates; "
                + "\(likes) likes (like, unlike, …) by Bob written to the store (SQLite, a file); time from the write to each host's update of that row.")
        table.notes.append(
            "Idle memory: RSS growth per scene after assembling, appearing and snapshotting N scenes, each case in a fresh process; "
                + "'static' scenes have no change feed (modules show what they loaded), 'live' ones subscribe while visible.")
        return table
    }

    // MARK: Fan-out

    static func measureFanOut(scenes count: Int, rounds: Int) async throws -> (each: [Double], last: [Double], queriesPerLike: Double) {
        let (store, directory) = try temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let counting = QueryCounter(base: store)
        let registry = try registry(
            ProfileServices(profiles: store, blogs: counting, drafts: store, relationships: store, changes: store))
        let viewers: [String?] = ["3", "5", "6", "7", nil]
        var hosts: [ArrivalHost] = []
        var scenes: [SceneInstance] = []
        for index in 0..<count {
            let host = ArrivalHost(watching: "blogs/blog.26.likes")
            let scene = try await registry.assemble(
                "user-profile", for: SceneContext(viewer: viewers[index % viewers.count], arguments: ["user": "1"]), host: host)
            await scene.appear()
            _ = await scene.takeBaseline()
            hosts.append(host)
            scenes.append(scene)
        }
        var each: [Double] = []
        var last: [Double] = []
        let queriesBefore = counting.count
        for round in 0..<rounds {
            let started = ContinuousClock.now
            _ = try await store.setLiked(round % 2 == 0, blog: 26, by: "2")
            var latest = Duration.zero
            for host in hosts {
                let arrived = await host.nextArrival() - started
                each.append(Measure.seconds(arrived))
                latest = max(latest, arrived)
            }
            last.append(Measure.seconds(latest))
        }
        let queries = Double(counting.count - queriesBefore) / Double(rounds)
        for scene in scenes { await scene.leave() }
        return (each, last, queries)
    }

    // MARK: Memory

    static func probeInFreshProcess(live: Bool, scenes: Int) throws -> String {
        try Measure.inFreshProcess(["--live-memory-probe", "\(live ? "live" : "static"):\(scenes)"]) + " KiB"
    }

    /// One measurement in this (fresh) process: prints the resident memory per scene, KiB.
    static func probe(_ argument: String) async {
        let parts = argument.split(separator: ":")
        guard parts.count == 2, let count = Int(parts[1]), let (store, directory) = try? temporaryStore() else { return }
        defer { try? FileManager.default.removeItem(at: directory) }
        let live = parts[0] != "static"  // "live", or "mirrored": live with a mirror per scene
        let services = ProfileServices(profiles: store, blogs: store, drafts: store, relationships: store, changes: live ? store : nil)
        guard let registry = try? registry(services) else { return }
        let viewers: [String?] = ["3", "5", "6", "7", nil]
        var scenes: [SceneInstance] = []
        scenes.reserveCapacity(count + 1)
        var mirrors: [SceneMirror] = []
        var baseline = 0.0
        // One scene first, so that what every scene shares (code, caches, the store) is in.
        for index in 0...count {
            guard
                let scene = try? await registry.assemble(
                    "user-profile", for: SceneContext(viewer: viewers[index % viewers.count], arguments: ["user": "1"]), host: NullSceneHost())
            else { return }
            await scene.appear()
            let taken = await scene.takeBaseline()
            if parts[0] == "mirrored" {
                // A host's own copy of the tree beside the scene's (what a page session keeps).
                var mirror = SceneMirror()
                mirror.attach(taken)
                mirrors.append(mirror)
            }
            scenes.append(scene)
            if index == 0 { baseline = Measure.residentMemoryKiB }
        }
        print(String(format: "%.1f", (Measure.residentMemoryKiB - baseline) / Double(count)))
        withExtendedLifetime((scenes, mirrors)) {}
    }

    // MARK: Support

    static func temporaryStore() throws -> (SQLiteProfileStore, URL) {
        let directory = FileManager.default.temporaryDirectory.appending(path: "scenery-fanout-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return (try SQLiteProfileStore(path: directory.appending(path: "demo.sqlite").path), directory)
    }

    static func registry(_ services: ProfileServices) throws -> SceneRegistry {
        var registry = SceneRegistry()
        registry.registerProfileModules(services)
        try registry.addBundledScenes()
        return registry
    }

    static func milliseconds(_ seconds: Double) -> String { String(format: "%.2f ms", seconds * 1000) }

    static func percentile(_ values: [Double], _ fraction: Double) -> Double {
        let sorted = values.sorted()
        return sorted.isEmpty ? .nan : sorted[min(sorted.count - 1, Int(fraction * Double(sorted.count)))]
    }
}

extension Array where Element == Double {
    var median: Double { FanOutBenchmark.percentile(self, 0.5) }
}

/// A host that notes when an update shows one node, and hands the instants out in order.
final class ArrivalHost: SceneHost, Sendable {
    private struct State {
        var arrivals: [ContinuousClock.Instant] = []
        var waiter: CheckedContinuation<ContinuousClock.Instant, Never>?
    }

    private let node: NodeID
    private let state = Locked(State())

    init(watching node: NodeID) {
        self.node = node
    }

    func sceneDidUpdate(_ update: SceneUpdate) async {
        guard update.node.node(withID: node) != nil else { return }
        let now = ContinuousClock.now
        let waiter = state.withLock { state -> CheckedContinuation<ContinuousClock.Instant, Never>? in
            guard let waiter = state.waiter else {
                state.arrivals.append(now)
                return nil
            }
            state.waiter = nil
            return waiter
        }
        waiter?.resume(returning: now)
    }

    /// The next instant an update showed the node (waits for it). One caller at a time.
    func nextArrival() async -> ContinuousClock.Instant {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> ContinuousClock.Instant? in
                if !state.arrivals.isEmpty { return state.arrivals.removeFirst() }
                state.waiter = continuation
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }

    func confirm(_ confirmation: Confirmation) async -> Bool { false }
    func navigate(to intent: NavigationIntent) async {}
    func receive(_ event: Event) async {}
}

/// A host that drops everything (for memory).
final class NullSceneHost: SceneHost, Sendable {
    func sceneDidUpdate(_ update: SceneUpdate) async {}
    func confirm(_ confirmation: Confirmation) async -> Bool { false }
    func navigate(to intent: NavigationIntent) async {}
    func receive(_ event: Event) async {}
}

/// A blog service that counts the single-blog reads that reach the store.
final class QueryCounter: BlogService {
    private let base: any BlogService
    private let reads = Atomic<Int>(0)

    init(base: any BlogService) { self.base = base }

    var count: Int { reads.load(ordering: .relaxed) }

    func blogs(by author: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<Blog> {
        try await base.blogs(by: author, viewer: viewer, page: page)
    }

    func blog(_ id: BlogID, viewer: UserID?) async throws -> Blog {
        reads.add(1, ordering: .relaxed)
        return try await base.blog(id, viewer: viewer)
    }

    func setLiked(_ liked: Bool, blog: BlogID, by user: UserID) async throws -> Int {
        try await base.setLiked(liked, blog: blog, by: user)
    }
}
