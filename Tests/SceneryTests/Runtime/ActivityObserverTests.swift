import SceneryTesting
import Synchronization
import Testing

@testable import Scenery

/// `SceneRegistry.activityObservers`: every load's end and every render pass of a scene,
/// with the module, its type and how it ended, as they happen.
@Suite(.timeLimit(.minutes(5))) struct ActivityObserverTests {
    /// Keeps what it is told, in order.
    final class Recorder: SceneRegistry.ActivityObserver {
        private let kept = Mutex<[(activity: SceneRegistry.Activity, scene: String)]>([])
        var activities: [(activity: SceneRegistry.Activity, scene: String)] { kept.withLock { $0 } }
        func record(_ activity: SceneRegistry.Activity, inScene sceneID: String) { kept.withLock { $0.append((activity, sceneID)) } }

        /// How each module's loads ended, by module id.
        var loads: [ModuleID: [SceneRegistry.LoadOutcome]] {
            activities.reduce(into: [:]) { loads, entry in
                if case .loaded(let module, _, _, let outcome) = entry.activity { loads[module, default: []].append(outcome) }
            }
        }
        var renders: [ModuleID] {
            activities.compactMap { entry in
                guard case .rendered(let module, _, _) = entry.activity else { return nil }
                return module
            }
        }
    }

    let context = SceneContext(viewer: "1", arguments: ["user": "1"])

    @Test func eachLoadIsReportedWithItsModuleTypeAndHowItEnded() async throws {
        let service = TestService(behaviors: ["b": .fail("The blog server is down."), "c": .hang])
        var registry = SceneRegistry.testing(service, scenes: ["three": LoadingTests.threeModules])
        let recorder = Recorder()
        registry.activityObservers.append(recorder)
        let scene = try await registry.assemble("three", for: context, host: RecordingHost())
        #expect(recorder.loads == ["a": [.finished], "b": [.failed], "c": [.timedOut]])
        #expect(recorder.activities.allSatisfy { $0.scene == "three" })
        for entry in recorder.activities {
            guard case .loaded(_, let type, let duration, _) = entry.activity else { continue }
            #expect(type == "ItemsModule")
            #expect(duration >= .zero)
        }
        await scene.leave()
    }

    @Test func aChangeShownToTheHostIsARenderPassOfItsModule() async throws {
        let service = TestService()
        let profile = #"{ "parameters": { "user": "userID" }, "modules": [ { "id": "info", "type": "ProfileModule", "params": { "user": "$user" } } ] }"#
        var registry = SceneRegistry.testing(service, scenes: ["profile": profile])
        let recorder = Recorder()
        registry.activityObservers.append(recorder)
        let scene = try await registry.assemble("profile", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: RecordingHost())
        _ = await scene.takeBaseline()
        let before = recorder.renders.count
        await scene.send(Event("user.follow", from: "info/follow"))
        #expect(recorder.renders.count > before, "the follow re-rendered the module")
        #expect(recorder.renders.suffix(from: before).allSatisfy { $0 == "info" })
        guard case .rendered(_, let type, _) = try #require(recorder.activities.last?.activity) else {
            Issue.record("the last activity is not a render: \(recorder.activities)")
            return
        }
        #expect(type == "ProfileModule")
        await scene.leave()
    }

    @Test func withoutObserversNothingIsRecordedOrTimed() async throws {
        let registry = SceneRegistry.testing(TestService(), scenes: ["three": LoadingTests.threeModules])
        let scene = try await registry.assemble("three", for: context, host: RecordingHost())
        #expect(!scene.tooling.isObserved)
        await scene.leave()
    }
}
