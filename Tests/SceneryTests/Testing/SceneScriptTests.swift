import SceneryTesting
import Testing

@testable import Scenery

@Suite struct SceneScriptTests {
    let service = TestService()
    var registry: SceneRegistry { .testing(service, scenes: Fixtures.all) }

    @Test func testsAWholeScreenInAFewLines() async throws {
        let transcript = try await SceneScript(
            "profile", context: SceneContext(viewer: "2", arguments: ["user": "1"]), registry: registry,
            steps: [
                .expect(.shows("Profile of Alice")),
                .expect(.lacksModule("secrets")),
                .tap("info/follow", answering: [false]),
                .expectRoute(["module info: passed", "scene: asked 'Unfollow Alice?', declined"]),
                .expect(.shows("Unfollow")),
                .tap("info/follow", answering: [true]),
                .expectResult(.delivered),
                .expectNavigations(["detail"]),
                .expectReceived(["user.unfollow"]),
                .expect(.shows("Follow")),
            ]
        ).run()
        #expect(transcript.outcomes.count == 2)
        #expect(transcript.host.confirmations.count == 2)
    }

    @Test func theScriptsHostRecordsTheUpdatesItsStepsCause() async throws {
        // A script written for round 2 checked `host.updates` after a tap: the script's own
        // host takes the scene's baseline, so the unfollow's update reaches it.
        let transcript = try await SceneScript(
            "profile", context: SceneContext(viewer: "2", arguments: ["user": "1"]), registry: registry,
            steps: [.tap("info/follow", answering: [true]), .expect(.shows("Follow"))]
        ).run()
        #expect(transcript.host.updates.map(\.module) == ["info"])
        #expect(transcript.host.updates.first?.node.visibleTexts.contains("Follow") == true)
    }

    @Test func aFailingStepSaysWhichAndShowsTheScene() async {
        let script = SceneScript(
            "profile", context: SceneContext(viewer: "2", arguments: ["user": "1"]), registry: registry,
            steps: [.expect(.shows("Alice")), .expect(.shows("Bob"))])
        await #expect {
            try await script.run()
        } throws: { error in
            let message = (error as? ExpectationFailure)?.message ?? ""
            return message.hasPrefix("Step 2 of 'profile' failed: expected the tree to show \"Bob\", but no visible text contains it.")
                && message.contains("┌─ info · ProfileModule")
        }
    }

    @Test func anUnansweredConfirmationFailsTheStep() async {
        let script = SceneScript(
            "profile", context: SceneContext(viewer: "2", arguments: ["user": "1"]), registry: registry, steps: [.tap("info/follow")])
        await #expect {
            try await script.run()
        } throws: { error in
            (error as? ExpectationFailure)?.message.contains("asked 'Unfollow Alice?', which the step did not answer") == true
        }
    }

    @Test func tappingAMissingControlListsTheControls() async {
        let script = SceneScript(
            "list", context: SceneContext(viewer: "2", arguments: ["user": "1"]), registry: registry, steps: [.tap("info/nope")])
        await #expect {
            try await script.run()
        } throws: { error in
            (error as? ExpectationFailure)?.message.contains("there is no control 'info/nope' to tap; controls: info/follow.") == true
        }
    }

    @Test func renderExpectationsReportWhatTheyFound() {
        let tree = ViewNode.stack("s", [.text("a", "Secret diary")])
        #expect(RenderExpectation.hides("Secret").problem(in: tree) == "it shows \"Secret diary\".")
        #expect(RenderExpectation.shows("diary").problem(in: tree) == nil)
        #expect(RenderExpectation.rendersText("Secret diary\n").problem(in: tree) == nil)
        #expect(RenderExpectation.rendersText("Public diary\n").problem(in: tree) == "it differs:\n1 - Public diary\n1 + Secret diary")
    }

    @Test func scriptedConfirmerAnswersInOrderThenFallsBack() {
        let confirmer = ScriptedConfirmer(answers: [true, false], fallback: true)
        let question = Confirmation(title: "Sure?")
        #expect([confirmer.answer(question), confirmer.answer(question), confirmer.answer(question)] == [true, false, true])
        #expect(confirmer.unexpected.count == 1)
        #expect(confirmer.asked.count == 3)
    }
}
