import SceneryTesting
import Synchronization
import Testing

@testable import Scenery

/// A page is one isolation domain: its scene, the modules that name its executor and a host
/// written to run there share one serial executor, so a tap crosses onto the page once and
/// back from the store once.
@Suite(.timeLimit(.minutes(5))) struct PageIsolationTests {
    /// A store of likes, off the page (an actor of its own, as a database connection is).
    actor LikeStore {
        private(set) var likes = 0
        func like() -> Int {
            likes += 1
            return likes
        }
    }

    /// A like button that writes through the store and shows the count.
    actor LikeModule: Module {
        static let like = EventKind<Empty>("likes.like")
        struct Empty: Codable, Sendable {}
        static let descriptor = ModuleDescriptor(type: "LikeModule", summary: "Counts likes.", sends: [like], performs: [like])

        private let context: ModuleContext
        private let store: LikeStore
        private var likes = 0
        nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }

        init(context: ModuleContext, store: LikeStore) {
            self.context = context
            self.store = store
        }

        func load(_ request: LoadRequest) async throws {}
        func render() -> ViewNode {
            .stack("likes", [.text("count", "Likes: \(likes)"), .button("like", title: "Like", sends: Self.like.descriptor(.init()))])
        }
        func perform(_ event: Event) async throws {
            likes = await store.like()
            await context.setNeedsRender()
        }
    }

    static func registry(store: LikeStore, made: Locked<[LikeModule]>) -> SceneRegistry {
        var registry = SceneRegistry()
        registry.register(LikeModule.self) { _, context in
            let module = LikeModule(context: context, store: store)
            made.withLock { $0.append(module) }
            return module
        }
        let problems = registry.addScene(id: "likes", source: #"{ "modules": [ { "id": "likes", "type": "LikeModule" } ] }"#)
        precondition(problems.filter { $0.severity == .error }.isEmpty, "\(problems)")
        return registry
    }

    @Test func aModuleThatNamesItsPagesExecutorRunsOnThePage() async throws {
        let made = Locked<[LikeModule]>([])
        let counter = CrossingCounter()
        let scene = try await Self.registry(store: LikeStore(), made: made).assemble(
            "likes", for: SceneContext(viewer: "1"), host: RecordingHost(), on: counter.page)
        let module = try #require(made.withLock { $0.first })
        #expect(scene.page === counter.page)
        let before = counter.crossingsIn
        _ = await module.render()
        #expect(counter.crossingsIn - before == 1, "a call from the test onto the module is a call onto the page")
        await scene.leave()
    }

    @Test func aLikeCrossesOntoThePageOnceAndBackFromTheStoreOnce() async throws {
        let made = Locked<[LikeModule]>([])
        let counter = CrossingCounter()
        let host = RecordingHost()
        let scene = try await Self.registry(store: LikeStore(), made: made).assemble(
            "likes", for: SceneContext(viewer: "1"), host: host, on: counter.page)
        _ = await scene.takeBaseline()
        let before = counter.crossingsIn
        let outcome = await scene.send(LikeModule.like.event(.init(), from: "likes/like"))
        #expect(outcome.result == .delivered)
        #expect(host.updates.last?.node.visibleTexts.contains("Likes: 1") == true, "the patch reached the host before the send returned")
        // The test → the page, the page → the store → the page, the page → the test.
        let crossings = counter.crossingsIn - before
        #expect(crossings == 2, "crossings onto the page: \(crossings)")
        await scene.leave()
    }

    @Test func aModuleOfItsOwnStillWorksOneHopAway() async throws {
        // A module that does not name the executor is an actor of its own: same behaviour.
        var registry = SceneRegistry()
        _ = registry.addScene(id: "text", source: #"{ "modules": [ { "id": "t", "type": "TextModule", "params": { "title": "Hi" } } ] }"#)
        let scene = try await registry.assemble("text", for: SceneContext(viewer: nil), host: RecordingHost())
        #expect(await scene.render().visibleTexts == ["Hi"])
        await scene.leave()
    }
}
