import SceneryTesting
import Testing

@testable import Scenery

/// A host that holds the update it is told of next until the test lets it go.
private final class HoldingHost: SceneHost, Sendable {
    private let state = Locked<(received: [SceneUpdate], holdNext: Bool)>(([], false))
    private let arrived = AsyncStream<Void>.makeStream()
    private let released = AsyncStream<Void>.makeStream()

    var received: [SceneUpdate] { state.withLock { $0.received } }

    func holdNext() { state.withLock { $0.holdNext = true } }

    /// Returns once the held update is inside `sceneDidUpdate`.
    func waitUntilHolding() async {
        var arrivals = arrived.stream.makeAsyncIterator()
        _ = await arrivals.next()
    }

    func release() { released.continuation.yield() }

    nonisolated(nonsending) func confirm(_ confirmation: Scenery.Confirmation) async -> Bool { true }
    nonisolated(nonsending) func navigate(to intent: NavigationIntent) async {}

    nonisolated(nonsending) func sceneDidUpdate(_ update: SceneUpdate) async {
        let holds = state.withLock { state in
            defer { state.holdNext = false }
            return state.holdNext
        }
        if holds {
            arrived.continuation.yield()
            var releases = released.stream.makeAsyncIterator()
            _ = await releases.next()
        }
        state.withLock { $0.received.append(update) }
    }
}

/// A count that changes when the test says so.
private actor CountModule: Module {
    static let descriptor = ModuleDescriptor(type: "CountModule", summary: "A count.")
    let context: ModuleContext
    var count = 0

    init(context: ModuleContext) { self.context = context }

    func load(_ request: LoadRequest) async throws {}

    func set(_ count: Int) async {
        self.count = count
        await context.setNeedsRender()
    }

    func render() -> ViewNode { .text("count", "Count: \(count)") }
}

/// How a scene hands its updates over: one loop, in order, and a caller returns once the
/// host was told of its own update.
@Suite(.timeLimit(.minutes(1)), .serialized) struct DeliveryTests {
    @Test func anUpdateMadeWhileTheHostIsBusyWithAnEarlierOneReturnsOnlyOnceItWasDelivered() async throws {
        var registry = SceneRegistry()
        let made = Locked<CountModule?>(nil)
        registry.register(CountModule.self) { _, context in
            let module = CountModule(context: context)
            made.withLock { $0 = module }
            return module
        }
        #expect(registry.addScene(id: "count", source: #"{"modules": [{"id": "count", "type": "CountModule"}]}"#).isEmpty)
        let host = HoldingHost()
        let scene = try await registry.assemble("count", for: SceneContext(viewer: "1"), host: host)
        _ = await scene.takeBaseline()
        let module = try #require(made.withLock { $0 })

        host.holdNext()
        let first = Task { await module.set(1) }
        await host.waitUntilHolding()
        let second = Task {
            await module.set(2)
            return host.received.map(\.sequence)
        }
        // The second update is made and queued (its caller now awaits the busy loop).
        while await scene.outbox.sequence < 2 { await Task.yield() }
        host.release()
        await first.value
        #expect(await second.value == [1, 2], "the second change returned after its own update was delivered, in order")
        #expect(await scene.render().visibleTexts.contains("Count: 2"))
    }

    @Test func theOutboxNumbersUpdatesAndHandsThemOverOldestFirst() {
        var outbox = SceneOutbox()
        let update = SceneUpdate(node: .text("t", "T"), module: nil, patches: [.delete("row.1")])
        #expect(outbox.enqueue(update) == 1)
        #expect(outbox.enqueue(update) == 2)
        #expect(outbox.next()?.sequence == 1)
        outbox.markDelivered(through: 1)
        #expect(outbox.hasDelivered(through: 1) && !outbox.hasDelivered(through: 2))
        #expect(outbox.next()?.sequence == 2)
        #expect(outbox.next() == nil)
    }

    @Test func aBaselineDropsWhatIsQueuedAndCountsItDelivered() {
        var outbox = SceneOutbox()
        let update = SceneUpdate(node: .text("t", "T"), module: nil, patches: [.delete("row.1")])
        _ = outbox.enqueue(update)
        _ = outbox.enqueue(update)
        outbox.takeBaseline()
        #expect(outbox.next() == nil)
        #expect(outbox.hasDelivered(through: 2))
        #expect(outbox.enqueue(update) == 3, "numbering goes on after the baseline")
    }
}
