import SceneryTesting
import Testing

@testable import Scenery

@Suite(.timeLimit(.minutes(5))) struct LoadingTests {
    static let threeModules = """
        {
          "parameters": { "user": "userID" },
          "modules": [
            { "id": "a", "type": "ItemsModule", "params": { "owner": "$user" } },
            { "id": "b", "type": "ItemsModule", "params": { "owner": "$user" } },
            { "id": "c", "type": "ItemsModule", "params": { "owner": "$user" }, "timeout": 100 }
          ]
        }
        """
    let context = SceneContext(viewer: "1", arguments: ["user": "1"])

    @Test func startsAllModulesConcurrently() async throws {
        // Each load waits until all three are in flight: sequential loading would never
        // get there, and every module would time out instead of becoming ready.
        let rendezvous = Rendezvous(count: 3)
        let service = TestService(behaviors: ["a": .meet(rendezvous), "b": .meet(rendezvous), "c": .meet(rendezvous)])
        // Without c's 100 ms deadline: on a loaded machine the three may take longer to meet,
        // and this test is about concurrency, not deadlines.
        let scenes = ["three": Self.threeModules.replacingOccurrences(of: #", "timeout": 100"#, with: "")]
        var registry = SceneRegistry.testing(service, scenes: scenes)
        registry.defaultModuleTimeout = .seconds(30)
        let scene = try await registry.assemble("three", for: context, host: RecordingHost())
        for id: ModuleID in ["a", "b", "c"] {
            #expect(await scene.status(of: id) == .ready)
        }
    }

    @Test func isReadyOnlyWhenTheSlowestModuleIsDone() async throws {
        let slow = Gate()
        let service = TestService(behaviors: ["b": .waitFor(slow)])
        var registry = SceneRegistry.testing(service, scenes: ["three": Self.threeModules])
        registry.defaultModuleTimeout = .seconds(30)
        let scene = try registry.instantiate("three", for: context, host: RecordingHost())
        let started = Task { await scene.start() }
        // a finishes while b is held back; the scene is not ready until b is released.
        await service.journal.wait { $0.contains("loaded a") }
        #expect(await scene.status(of: "b") == .loading)
        slow.open()
        await started.value
        #expect(await scene.status(of: "b") == .ready)
    }

    @Test func aFailingModuleShowsItsErrorAndTheRestRender() async throws {
        let service = TestService(behaviors: ["b": .fail("The blog server is down.")])
        let registry = SceneRegistry.testing(service, scenes: ["three": Self.threeModules])
        let scene = try await registry.assemble("three", for: context, host: RecordingHost())
        let tree = await scene.render()
        #expect(tree.moduleFrame("a")?.status == .ready)
        #expect(tree.moduleFrame("c")?.status == .ready)
        let failed = try #require(tree.moduleFrame("b"))
        #expect(failed.status == .failed)
        guard case .placeholder(let placeholder) = failed.content.kind else {
            Issue.record("expected an error placeholder, got \(failed.content.kind)")
            return
        }
        #expect(placeholder.kind == .error)
        #expect(placeholder.message == "The blog server is down.")
        #expect(placeholder.retry == EventDescriptor(SceneEvents.retry, payload: ["module": "b"]))
    }

    @Test func retryRecoversAFailedModule() async throws {
        let service = TestService(behaviors: ["b": .fail("Down.")])
        let registry = SceneRegistry.testing(service, scenes: ["three": Self.threeModules])
        let host = RecordingHost()
        let scene = try await registry.assemble("three", for: context, host: host)
        service.setBehavior(.succeed, for: "b")
        host.reset()
        let retry = try #require(await scene.takeBaseline().node.action(withID: "b/error"))
        let outcome = await scene.send(retry.event)
        #expect(outcome.result == .handled(by: .scene))
        #expect(outcome.route.map(\.description) == ["scene: retried b: ready"])
        #expect(await scene.status(of: "b") == .ready)
        #expect(await scene.render().visibleTexts.contains("Item 0"))
        // The host saw the loading state, then the loaded one.
        #expect(host.updates.compactMap { $0.node.kind.moduleStatus } == [.loading, .ready])
    }

    @Test func aModuleThatHangsTimesOutWithoutHoldingTheSceneBack() async throws {
        let service = TestService(behaviors: ["c": .hang])
        let registry = SceneRegistry.testing(service, scenes: ["three": Self.threeModules])
        let scene = try await registry.assemble("three", for: context, host: RecordingHost())
        #expect(await scene.status(of: "a") == .ready)
        let frame = try #require(await scene.render().moduleFrame("c"))
        #expect(frame.status == .failed)
        #expect(frame.content.visibleTexts == ["This part of the page did not load within 100 ms; try again."])
    }

    @Test func leavingCancelsLoadsAndNothingUpdatesAfterwards() async throws {
        let gate = Gate()
        let service = TestService(behaviors: ["a": .waitFor(gate), "b": .waitFor(gate), "c": .waitFor(gate)])
        var registry = SceneRegistry.testing(service, scenes: ["three": Self.threeModules])
        registry.defaultModuleTimeout = .seconds(30)
        let host = RecordingHost()
        let scene = try registry.instantiate("three", for: context, host: host)
        let started = Task { await scene.start() }
        await service.journal.wait { $0.filter { $0.hasPrefix("load ") }.count == 3 }
        await scene.leave()
        await started.value
        gate.open()
        #expect(await scene.hasLeft)
        #expect(host.updates.isEmpty)
        #expect(!service.journal.all.contains { $0.hasPrefix("loaded") }, "cancelled loads must not complete: \(service.journal.all)")
        let outcome = await scene.send(Event("item.open", from: "a/list"))
        #expect(outcome.result == .ignored)
    }

    @Test func loadMoreAppendsTheNextPage() async throws {
        let service = TestService()
        let registry = SceneRegistry.testing(service, scenes: ["three": Self.threeModules])
        let scene = try await registry.assemble("three", for: context, host: RecordingHost())
        #expect(await scene.render().moduleFrame("a")?.content.visibleTexts.filter { $0.hasPrefix("Item ") } == ["Item 0", "Item 1", "Item 2"])
        await scene.send(Event(SceneEvents.loadMore, from: "a", payload: ["module": "a"]))
        #expect(
            await scene.render().moduleFrame("a")?.content.visibleTexts.filter { $0.hasPrefix("Item ") }
                == ["Item 0", "Item 1", "Item 2", "Item 3", "Item 4"])
    }

    @Test func aFailedNextPageKeepsWhatIsShown() async throws {
        let service = TestService()
        let registry = SceneRegistry.testing(service, scenes: ["three": Self.threeModules])
        let scene = try await registry.assemble("three", for: context, host: RecordingHost())
        service.setBehavior(.fail("Offline."), for: "a")
        await scene.send(Event(SceneEvents.loadMore, from: "a", payload: ["module": "a"]))
        #expect(await scene.status(of: "a") == .ready)
        #expect(await scene.render().moduleFrame("a")?.content.visibleTexts.contains("Item 2") == true)
    }
}

extension ViewNode.Kind {
    var moduleStatus: ModuleStatus? {
        if case .module(let frame) = self { return frame.status }
        return nil
    }
}

/// A module that notes the write context each of its loads runs in.
private actor ContextNotingModule: Module {
    static let descriptor = ModuleDescriptor(type: "ContextNotingModule", summary: "Notes its loads' write context.")
    static let seen = Locked<[WriteContext]>([])

    func load(_ request: LoadRequest) async throws { Self.seen.withLock { $0.append(WriteContext.current) } }
    func load(window: RowWindow) async throws { Self.seen.withLock { $0.append(WriteContext.current) } }
    func render() -> ViewNode { .text("noted", "Noted") }
}

@Suite(.serialized) struct LoadContextTests {
    @Test func aModuleLoadsOnItsPagesBehalfSoItsWritesThereAreBound() async throws {
        var registry = SceneRegistry()
        registry.register(ContextNotingModule.self) { _, _ in ContextNotingModule() }
        #expect(registry.addScene(id: "noting", source: #"{"modules": [{"id": "noting", "type": "ContextNotingModule"}]}"#).isEmpty)
        ContextNotingModule.seen.withLock { $0 = [] }
        let scene = try await registry.assemble("noting", for: SceneContext(viewer: "1"), host: RecordingHost())
        #expect(!WriteContext.current.isBound, "the test binds nothing")
        await scene.start()
        await scene.setWindow(RowWindow(start: 0, count: 5), for: "noting")
        let seen = ContextNotingModule.seen.withLock { $0 }
        #expect(seen.count == 2, "the first load and the window's")
        for context in seen {
            #expect(context.isBound)
            #expect(context.page == scene.origin, "a load's writes are on its page's behalf")
            #expect(context.action == nil)
        }
    }
}
