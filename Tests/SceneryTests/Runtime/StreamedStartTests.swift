import SceneryTesting
import Testing

@testable import Scenery

/// A scene shown before its slowest module (``SceneInstance/start(waitingAtMost:)``): the
/// first rendering holds a slow module's loading state, and its content reaches the host
/// as an update when it loads.
@Suite(.timeLimit(.minutes(5))) struct StreamedStartTests {
    let context = SceneContext(viewer: "1", arguments: ["user": "1"])

    func scene(_ behaviors: [String: LoadBehavior], host: RecordingHost) throws -> (SceneInstance, TestService) {
        let service = TestService(behaviors: behaviors)
        var registry = SceneRegistry.testing(service, scenes: ["three": LoadingTests.threeModules.replacingOccurrences(of: #", "timeout": 100"#, with: "")])
        registry.defaultModuleTimeout = .seconds(30)
        return (try registry.instantiate("three", for: context, host: host), service)
    }

    @Test func aSlowModuleIsItsLoadingStateFirstAndReachesTheHostWhenItLoads() async throws {
        let slow = Gate()
        let host = RecordingHost()
        let (scene, _) = try scene(["b": .waitFor(slow)], host: host)
        await scene.start(waitingAtMost: .milliseconds(20))
        #expect(await scene.status(of: "b") == .loading)
        #expect(await !scene.hasFinishedFirstLoads)
        let first = await scene.takeBaseline()
        #expect(first.node.moduleFrame("b")?.status == .loading)
        #expect(first.node.moduleFrame("b")?.content.visibleTexts == ["Loading…"])

        slow.open()
        let arrived = await host.waitForUpdates { updates in updates.contains { $0.module == "b" && $0.node.kind.moduleStatus == .ready } }
        #expect(arrived, "b's content reached the host as an update")
        #expect(await scene.render().moduleFrame("b")?.content.visibleTexts.contains("Item 0") == true)
        await scene.waitForFirstLoads(atMost: .seconds(30))
        #expect(await scene.hasFinishedFirstLoads)
    }

    @Test func aSceneWhoseModulesAllLoadReturnsWithoutWaitingOutItsBudget() async throws {
        let host = RecordingHost()
        let (scene, _) = try scene([:], host: host)
        // An hour: the suite's one-minute limit fails the test if the start waited it out.
        await scene.start(waitingAtMost: .seconds(3600))
        #expect(await scene.hasFinishedFirstLoads)
        for id: ModuleID in ["a", "b", "c"] {
            #expect(await scene.status(of: id) == .ready)
        }
    }

    @Test func aFailureAfterTheFirstRenderingReachesTheHostWithItsRetry() async throws {
        let slow = Gate()
        let host = RecordingHost()
        let (scene, _) = try scene(["b": .waitThenFail(slow, "The blog server is down.")], host: host)
        await scene.start(waitingAtMost: .milliseconds(20))
        _ = await scene.takeBaseline()
        slow.open()
        let arrived = await host.waitForUpdates { updates in updates.contains { $0.module == "b" && $0.node.kind.moduleStatus == .failed } }
        #expect(arrived)
        let failed = try #require(await scene.render().moduleFrame("b"))
        #expect(failed.content.visibleTexts.first == "The blog server is down.")
        #expect(failed.content.action(withID: "b/error") != nil, "with its retry")
        #expect(await scene.render().moduleFrame("a")?.status == .ready, "the others are untouched")
    }

    @Test func leavingWhileModulesStillLoadEndsTheirLoadsAndUpdatesNothing() async throws {
        let slow = Gate()
        let host = RecordingHost()
        let (scene, _) = try scene(["a": .waitFor(slow), "b": .waitFor(slow), "c": .waitFor(slow)], host: host)
        await scene.start(waitingAtMost: .milliseconds(20))
        _ = await scene.takeBaseline()
        await scene.leave()
        #expect(await scene.hasFinishedFirstLoads, "leaving ends the first loads")
        slow.open()
        await scene.waitForFirstLoads(atMost: .seconds(30))
        #expect(host.updates.isEmpty)
    }
}
