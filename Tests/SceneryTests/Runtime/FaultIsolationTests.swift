import SceneryLive
import SceneryTesting
import Testing

@testable import Scenery

/// A module that hangs or fails is its own page's trouble only: its page still routes other
/// events, asks and hears confirmations, and leaves; another page never waits for it; and a
/// page that left takes no live change and shows nothing more.
@Suite(.timeLimit(.minutes(5))) struct FaultIsolationTests {
    static let scene = #"""
        {
          "modules": [ { "id": "stuck", "type": "Stuckable" }, { "id": "other", "type": "Stuckable" } ],
          "events": [ { "on": "item.remove", "steps": [ { "confirm": { "title": "Remove it?" } }, "continue" ] } ]
        }
        """#

    /// A module whose `handle` of `item.hang` waits for the gate; the rest it handles at once.
    actor Stuckable: Module {
        static let hang = EventKind<Empty>("item.hang")
        static let tap = EventKind<Empty>("item.tap")
        static let remove = EventKind<Empty>("item.remove")
        struct Empty: Codable, Sendable {}

        static let descriptor = ModuleDescriptor(
            type: "Stuckable", summary: "Hangs when asked.", sends: [hang, tap, remove], performs: [remove])
        let gate: Gate
        let journal: Journal
        let id: ModuleID
        let context: ModuleContext
        let live: LiveQuery<Stuckable, TestChange>

        init(gate: Gate, journal: Journal, context: ModuleContext, changes: ChangeHub<TestChange>) {
            self.gate = gate
            self.journal = journal
            self.context = context
            id = context.id
            live = LiveQuery(changes, context: context) { module, _ in
                module.journal.record("\(module.id) refreshed")
                await module.context.setNeedsRender()
            }
        }

        func load(_ request: LoadRequest) async throws {}
        func appear() async { await live.follow([.item], for: self) }
        func disappear() async { live.stop() }
        func render() -> ViewNode { .text("text", "\(id)") }

        func handle(_ event: Event) async -> EventDisposition {
            if Self.hang.matches(event) {
                journal.record("\(id) hangs")
                await gate.wait()
                journal.record("\(id) let go")
                return .handled
            }
            if Self.tap.matches(event) {
                journal.record("\(id) tapped")
                return .handled
            }
            return .pass
        }

        func perform(_ event: Event) async throws { journal.record("\(id) removed") }

        /// Catches up with a change that was on its way when the page left.
        func changed() async { await live.refresh(.item, for: self) }
    }

    let gate = Gate()
    let journal = Journal()
    let modules = Locked<[ModuleID: Stuckable]>([:])
    let hub = ChangeHub<TestChange>()

    func registry() -> SceneRegistry {
        var registry = SceneRegistry()
        let (gate, journal, modules, hub) = (gate, journal, modules, hub)
        registry.register(Stuckable.self) { _, context in
            let module = Stuckable(gate: gate, journal: journal, context: context, changes: hub)
            modules.withLock { $0[context.id] = module }
            return module
        }
        let problems = registry.addScene(id: "stuck", source: Self.scene)
        precondition(problems.filter { $0.severity == .error }.isEmpty, "\(problems)")
        return registry
    }

    @Test func aHangingModuleLeavesItsPageAnsweringAndAnotherPageUntouched() async throws {
        let registry = registry()
        let confirmer = ScriptedConfirmer(answers: [true])
        let host = RecordingHost(confirmer: confirmer)
        let page = try await registry.assemble("stuck", for: SceneContext(viewer: "1"), host: host)
        let hanging = Task { await page.send(Stuckable.hang.event(.init(), from: "stuck/text")) }
        await journal.wait { $0.contains("stuck hangs") }
        // The same page: another module's event, and a confirmation asked and answered.
        let tapped = await page.send(Stuckable.tap.event(.init(), from: "other/text"))
        #expect(tapped.result == .handled(by: .module("other")))
        let removed = await page.send(Stuckable.remove.event(.init(), from: "other/text"))
        #expect(removed.result == .delivered && host.confirmations.map(\.title) == ["Remove it?"])
        // Another page of the same scene.
        let another = try await registry.assemble("stuck", for: SceneContext(viewer: "2"), host: RecordingHost())
        #expect(await another.send(Stuckable.tap.event(.init(), from: "stuck/text")).result == .handled(by: .module("stuck")))
        // The page leaves while its module still hangs.
        await page.leave()
        #expect(await page.hasLeft)
        #expect(!journal.all.contains("stuck let go"), "it left without waiting for the hanging module")
        gate.open()
        _ = await hanging.value
        await another.leave()
    }

    @Test func aPageThatLeftFollowsNothingAndShowsNothingMore() async throws {
        let registry = registry()
        let host = RecordingHost()
        let page = try await registry.assemble("stuck", for: SceneContext(viewer: "1"), host: host)
        await page.appear()
        _ = await page.takeBaseline()
        #expect(hub.subscriptionCount == 2, "both modules follow while shown")
        hub.publish([.item])
        await journal.wait { $0.contains("stuck refreshed") && $0.contains("other refreshed") }
        await page.leave()
        #expect(hub.subscriptionCount == 0, "a page that left costs the hub nothing")
        host.reset()
        let module = try #require(modules.withLock { $0["stuck"] })
        await module.changed()  // a change that was on its way when the page left
        #expect(host.updates.isEmpty, "a page that left is never updated")
    }
}

/// An entity for the hub of these tests.
enum TestChange: LiveEntity {
    case item
    case everything

    var description: String { self == .item ? "item" : "everything" }
}
