import Foundation
import SceneryTesting
import Testing

@testable import Scenery

/// Scene scripts kept in files: recorded once, then replayed and compared.
@Suite struct RecordedScriptTests {
    let service = TestService()

    func scriptFile(_ text: String) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appending(path: "script-\(UUID().uuidString).json")
        try Data(text.utf8).write(to: file)
        return file
    }

    let source = """
        { "scene": "profile", "viewer": "2", "arguments": { "user": "1" },
          "steps": [ { "tap": "info/follow", "answers": [false] }, { "tap": "info/follow", "answers": [true] } ] }
        """

    @Test func recordsOnceThenReplaysAndCatchesAChange() async throws {
        let file = try scriptFile(source)
        defer { try? FileManager.default.removeItem(at: file) }
        let registry: (JSONValue?) async throws -> SceneRegistry = { _ in .testing(service, scenes: Fixtures.all) }

        // No recording yet: it records, and fails so the recording is looked at.
        let first = await #expect(throws: ExpectationFailure.self) { try await RecordedScript.replay(file, record: false, registry: registry) }
        #expect(first?.message.contains("had no recording; recorded 3 screen(s)") == true)
        let recorded = try JSONDecoder().decode(RecordedScript.self, from: Data(contentsOf: file))
        #expect(
            recorded.recorded?.events[0] == [
                "user.unfollow from info/follow", "module info: passed", "scene: asked 'Unfollow Alice?', declined", "ended cancelled by scene",
            ])
        #expect(recorded.recorded?.screens[2].contains { $0.contains("[ Follow ]") } == true)

        // Replayed: the same screens and routes.
        try await RecordedScript.replay(file, record: false, registry: registry)

        // A different wording is a difference, shown as a diff.
        let changed: (JSONValue?) async throws -> SceneRegistry = { _ in
            .testing(
                service,
                scenes: Fixtures.all.merging([
                    "profile": Fixtures.profile.replacingOccurrences(of: "Unfollow $event.name?", with: "Stop following $event.name?")
                ]) { $1 })
        }
        let failure = await #expect(throws: ExpectationFailure.self) { try await RecordedScript.replay(file, record: false, registry: changed) }
        #expect(failure?.message.contains("step 1's event went otherwise than recorded") == true)
        #expect(failure?.message.contains("+ scene: asked 'Stop following Alice?', declined") == true)
    }

    @Test func aBrokenFileSaysSo() async throws {
        let file = try scriptFile(#"{ "scene": 3 }"#)
        defer { try? FileManager.default.removeItem(at: file) }
        let failure = await #expect(throws: ExpectationFailure.self) {
            try await RecordedScript.replay(file, record: false) { _ in .testing(service, scenes: Fixtures.all) }
        }
        #expect(failure?.message.contains("not a recorded scene script") == true)
    }
}
