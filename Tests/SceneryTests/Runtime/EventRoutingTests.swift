import SceneryTesting
import Testing

@testable import Scenery

@Suite struct EventRoutingTests {
    let service = TestService()
    var registry: SceneRegistry { .testing(service, scenes: Fixtures.all) }
    let otherViewer = SceneContext(viewer: "2", arguments: ["user": "1"])

    func unfollow(in scene: SceneInstance) async throws -> EventOutcome {
        let action = try #require(await scene.render().action(withID: "info/follow"))
        return await scene.send(action.event)
    }

    @Test func sceneThatConfirmsStopsTheEventWhenDeclined() async throws {
        let host = RecordingHost(confirmer: ScriptedConfirmer(answers: [false]))
        let scene = try await registry.assemble("profile", for: otherViewer, host: host)
        let outcome = try await unfollow(in: scene)
        #expect(outcome.route.map(\.description) == ["module info: passed", "scene: asked 'Unfollow Alice?', declined"])
        #expect(outcome.result == .cancelled(by: .scene))
        #expect(host.confirmations == [Confirmation(title: "Unfollow Alice?", confirmLabel: "Unfollow", cancelLabel: "Keep")])
        #expect(host.receivedEvents.isEmpty)
        #expect(host.navigations.isEmpty)
        #expect(!service.journal.all.contains("unfollow 1"))
        #expect(await scene.render().visibleTexts.contains("Unfollow"), "still following")
    }

    @Test func sceneThatConfirmsRunsTheChainWhenAccepted() async throws {
        let host = RecordingHost(confirmer: ScriptedConfirmer(answers: [true]))
        let scene = try await registry.assemble("profile", for: otherViewer, host: host)
        let outcome = try await unfollow(in: scene)
        #expect(
            outcome.route.map(\.description) == [
                "module info: passed", "scene: asked 'Unfollow Alice?', confirmed", "scene: let through",
                "module info: performed", "host: received", "scene: navigated to detail",
            ])
        #expect(outcome.result == .delivered)
        #expect(host.receivedEvents.map(\.name) == ["user.unfollow"])
        #expect(host.receivedEvents.first?.source == "info/follow")
        #expect(host.navigations == [NavigationIntent(scene: "detail", arguments: ["item": "1"], trigger: "user.unfollow")])
        #expect(service.journal.all.contains("unfollow 1"))
        #expect(await scene.render().visibleTexts.contains("Follow"))
    }

    @Test func sceneWithoutARuleLetsTheEventThroughWithoutAsking() async throws {
        let host = RecordingHost()
        let scene = try await registry.assemble("list", for: otherViewer, host: host)
        let outcome = try await unfollow(in: scene)
        #expect(outcome.route.map(\.description) == ["module info: passed", "scene: passed", "module info: performed", "host: received"])
        #expect(host.confirmations.isEmpty)
        #expect(service.journal.all.contains("unfollow 1"))
    }

    @Test func anActionThatFailsEndsTheRouteThereAndNeverReachesTheHost() async throws {
        service.setBehavior(.fail("The follow service is down."), for: "write")
        let host = RecordingHost()
        let scene = try await registry.assemble("list", for: otherViewer, host: host)
        let outcome = try await unfollow(in: scene)
        #expect(outcome.route.map(\.description) == ["module info: passed", "scene: passed", "module info: failed: The follow service is down."])
        #expect(outcome.route.last?.action == .failed("The follow service is down."))
        #expect(outcome.result == .failed(in: .module("info"), reason: "The follow service is down."))
        #expect(outcome.result.description == "failed in module info: The follow service is down.")
        #expect(host.receivedEvents.isEmpty, "nothing happened to tell the host of")
        #expect(!service.journal.all.contains("unfollow 1"))
        #expect(await scene.render().visibleTexts.contains("Unfollow"), "still following")
    }

    @Test func moduleThatHandlesAnEventStopsItThere() async throws {
        let host = RecordingHost()
        let scene = try await registry.assemble("list", for: otherViewer, host: host)
        _ = try await unfollow(in: scene)
        host.reset()
        let follow = try #require(await scene.takeBaseline().node.action(withID: "info/follow"))
        #expect(follow.title == "Follow")
        let outcome = await scene.send(follow.event)
        #expect(outcome.result == .handled(by: .module("info")))
        #expect(outcome.route.map(\.description) == ["module info: handled"])
        #expect(host.receivedEvents.isEmpty)
        #expect(host.updates.map(\.module) == ["info"], "only the changed module is re-rendered")
    }

    @Test func moduleCanTransformAnEventAndTheSceneCanBlockIt() async throws {
        let host = RecordingHost()
        let scene = try await registry.assemble("profile", for: otherViewer, host: host)
        let outcome = await scene.send(Event("avatar.tap", from: "info/avatar"))
        #expect(outcome.route.map(\.description) == ["module info: transformed to user.open", "scene: blocked"])
        #expect(outcome.finalEvent.name == "user.open")
        #expect(outcome.finalEvent.payload["user"] == "1")
        #expect(outcome.result == .cancelled(by: .scene))
        #expect(host.receivedEvents.isEmpty)
    }

    @Test func navigationCarriesTheEventPayload() async throws {
        let host = RecordingHost()
        let scene = try await registry.assemble("profile", for: otherViewer, host: host)
        let open = try #require(await scene.render().action(withID: "items/row.2.open"))
        let outcome = await scene.send(open.event)
        #expect(outcome.navigations == [NavigationIntent(scene: "detail", arguments: ["item": 2], trigger: "item.open")])
        #expect(host.navigations.map(\.scene) == ["detail"])
    }

    @Test func moduleCanAskForConfirmationItself() async throws {
        actor Asking: Module {
            static let descriptor = ModuleDescriptor(type: "Asking", summary: "Asks.", events: ["thing.delete"])
            func load(_ request: LoadRequest) async throws {}
            func render() -> ViewNode { .button("delete", title: "Delete", sends: EventDescriptor("thing.delete")) }
            func handle(_ event: Event) async -> EventDisposition { .confirm(Confirmation(title: "Delete it?")) }
        }
        var registry = SceneRegistry()
        registry.register(Asking.self) { _, _ in Asking() }
        registry.addScene(id: "s", source: #"{ "modules": [ { "id": "a", "type": "Asking" } ] }"#)
        let host = RecordingHost(confirmer: ScriptedConfirmer(answers: [false, true]))
        let scene = try await registry.assemble("s", for: SceneContext(viewer: "1"), host: host)
        let declined = await scene.send(Event("thing.delete", from: "a/delete"))
        #expect(declined.result == .cancelled(by: .module("a")))
        let accepted = await scene.send(Event("thing.delete", from: "a/delete"))
        #expect(accepted.result == .delivered)
        #expect(host.receivedEvents.map(\.name) == ["thing.delete"])
        #expect(await scene.eventLog.count == 2)
    }

    @Test func theEventLogKeepsTheMostRecentOutcomesOnly() async throws {
        let scene = try await registry.assemble("profile", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: RecordingHost())
        let total = SceneInstance.keptEventOutcomes + 6
        for index in 0..<total {
            await scene.send(Event("nobody.listens.\(index)", from: "info/none"))
        }
        let log = await scene.eventLog
        #expect(log.count == SceneInstance.keptEventOutcomes)
        #expect(log.first?.event.name == "nobody.listens.6", "the oldest six were dropped")
        #expect(log.last?.event.name == "nobody.listens.\(total - 1)")
    }

    @Test func theEventLogCutsLongTextsAndStaysWithinItsBytes() async throws {
        let scene = try await registry.assemble("profile", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: RecordingHost())
        let body = String(repeating: "a draft's body ", count: 4_000)  // 60 KB, as a form may send
        let sent = await scene.send(Event("nobody.listens", from: "info/none", payload: ["body": .string(body)]))
        #expect(sent.event.payload["body"]?.stringValue == body, "the outcome sent back is whole")
        let kept = try #require(await scene.eventLog.last?.event.payload["body"]?.stringValue)
        #expect(kept.count == 121 && kept.hasSuffix("…"), "the log keeps its first 120 characters")
        for _ in 0..<SceneInstance.keptEventOutcomes {
            let payload: [String: JSONValue] = ["body": .string(body), "more": .array(Array(repeating: .string(body), count: 100))]
            await scene.send(Event("nobody.listens", from: "info/none", payload: payload))
        }
        let log = await scene.eventLog
        var sizes = EventLog(mostOutcomes: .max, mostBytes: .max)
        for outcome in log { sizes.append(outcome) }
        #expect(sizes.byteCount <= SceneInstance.keptEventBytes, "within its bytes: \(sizes.byteCount)")
        #expect(log.count < SceneInstance.keptEventOutcomes, "fewer outcomes, as each is large")
        guard case .array(let more)? = log.last?.event.payload["more"] else {
            Issue.record("the array is kept, cut")
            return
        }
        #expect(more.count == EventLog.mostEntries)
    }

    @Test func eventRuleConditionsSeeThePayload() async throws {
        var registry = registry
        registry.addScene(
            id: "menu",
            source: """
                { "modules": [ { "id": "help", "type": "ActionModule", "params": { "title": "Help", "action": "help" } },
                               { "id": "quit", "type": "ActionModule", "params": { "title": "Quit", "action": "quit" } } ],
                  "events": [ { "on": "action.tap", "when": "event.action == 'help'",
                                "navigate": { "scene": "detail", "args": { "item": "help" } } } ] }
                """)
        let host = RecordingHost()
        let scene = try await registry.assemble("menu", for: SceneContext(viewer: "1"), host: host)
        let tree = await scene.render()
        await scene.send(try #require(tree.action(withID: "quit/button")).event)
        #expect(host.navigations.isEmpty)
        await scene.send(try #require(tree.action(withID: "help/button")).event)
        #expect(host.navigations.map(\.scene) == ["detail"])
    }

    @Test func eventsFromNodesOutsideAnyModuleGoStraightToTheScene() async throws {
        let host = RecordingHost()
        let scene = try await registry.assemble("list", for: otherViewer, host: host)
        let outcome = await scene.send(Event("custom.ping", from: "toolbar"))
        #expect(outcome.route.map(\.description) == ["scene: passed", "host: received"])
    }
}
