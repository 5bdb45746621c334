import Foundation
import Scenery

/// A scene script kept in a file — the scene, its data and the events sent — with what it
/// produced: the screen as text after each step and the route of each event. Replaying it
/// checks that the scene still produces exactly that.
///
/// Write the inputs by hand, then record: with `SCENERY_RECORD=1` in the environment (or
/// `record: true`), or when the file has no recording yet, ``replay(_:record:registry:)``
/// runs the script, writes what it produced into the file and fails, saying so — read the
/// recording, commit it, and run again.
///
/// ```json
/// { "scene": "user-profile", "viewer": "1", "arguments": { "user": "1" },
///   "data": { "bin": [ { "id": 7, "title": "Draft of March" } ] },
///   "steps": [ { "tap": "bin/row.7.restore", "answers": [true] } ] }
/// ```
///
/// ```swift
/// try await RecordedScript.replay(scriptURL) { data in
///     try makeRegistry(binContents: data?["bin"])    // the scene's modules over the file's data
/// }
/// ```
public struct RecordedScript: Codable, Sendable, Hashable {
    /// The scene to run.
    public var scene: String
    /// Who is looking (`nil`: signed out).
    public var viewer: String?
    /// The scene's arguments.
    public var arguments: [String: JSONValue]
    /// The data the registry is built over, in a form the test chooses.
    public var data: JSONValue?
    /// The width the screens are rendered at.
    public var width: Int?
    /// What happens, in order.
    public var steps: [Step]
    /// What the last recording produced.
    public var recorded: Recording?

    /// One thing a person does.
    public struct Step: Codable, Sendable, Hashable {
        /// Activate the control with this id (`bin/row.7.restore`).
        public var tap: NodeID?
        /// Or send this event.
        public var send: Event?
        /// Answers to the questions the event asks, in order.
        public var answers: [Bool]?

        public init(tap: NodeID? = nil, send: Event? = nil, answers: [Bool]? = nil) {
            self.tap = tap
            self.send = send
            self.answers = answers
        }
    }

    /// The screen after the scene appeared and after each step, and what each event did.
    public struct Recording: Codable, Sendable, Hashable {
        /// The text rendering, one array of lines per screen.
        public var screens: [[String]]
        /// For each step: the event, its route and how it ended.
        public var events: [[String]]
    }

    /// Whether scripts are recorded instead of checked: `SCENERY_RECORD=1` in the environment.
    public static var isRecording: Bool {
        ProcessInfo.processInfo.environment["SCENERY_RECORD"] == "1"
    }

    /// Replays the script in `file` against a registry made for its data, and checks each
    /// screen and each event's route against the recording.
    ///
    /// - Parameters:
    ///   - file: The script (JSON); recording rewrites it.
    ///   - record: Record instead of check (the file is rewritten with what happened).
    ///   - registry: Makes the registry (modules with their services, and scenes) for the
    ///     script's `data`.
    /// - Throws: ``ExpectationFailure`` naming the file and step and showing the difference;
    ///   after recording, one that says the file was written.
    public static func replay(
        _ file: URL, record: Bool = isRecording, registry: (JSONValue?) async throws -> SceneRegistry
    ) async throws {
        let name = file.lastPathComponent
        var script: RecordedScript
        do {
            script = try JSONDecoder().decode(RecordedScript.self, from: Data(contentsOf: file))
        } catch {
            throw ExpectationFailure("\(file.path): not a recorded scene script: \(SceneryError.message(for: error)) Fix the file (see RecordedScript).")
        }
        let produced = try await script.run(registry: try await registry(script.data), file: name)
        if !record, let recorded = script.recorded {
            for (index, (expected, actual)) in zip(recorded.screens, produced.screens).enumerated() where expected != actual {
                throw ExpectationFailure(
                    "\(name): the screen \(index == 0 ? "after the scene appeared" : "after step \(index)") differs from the recording (- recorded, + now):\n"
                        + TextDiff.describe(expected: expected.joined(separator: "\n"), actual: actual.joined(separator: "\n"))
                        + "\nIf the change is intended, record again with SCENERY_RECORD=1.")
            }
            for (index, (expected, actual)) in zip(recorded.events, produced.events).enumerated() where expected != actual {
                throw ExpectationFailure(
                    "\(name): step \(index + 1)'s event went otherwise than recorded (- recorded, + now):\n"
                        + TextDiff.describe(expected: expected.joined(separator: "\n"), actual: actual.joined(separator: "\n"))
                        + "\nIf the change is intended, record again with SCENERY_RECORD=1.")
            }
            guard recorded == produced else {
                throw ExpectationFailure(
                    "\(name): the recording has \(recorded.screens.count) screen(s) and the script now produces \(produced.screens.count); record again with SCENERY_RECORD=1."
                )
            }
            return
        }
        let hadRecording = script.recorded != nil
        script.recorded = produced
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        try (encoder.encode(script) + Data("\n".utf8)).write(to: file, options: .atomic)
        throw ExpectationFailure(
            "\(name): \(hadRecording ? "recorded again" : "had no recording; recorded") \(produced.screens.count) screen(s) into \(file.path). Check the recording, then run without SCENERY_RECORD."
        )
    }

    /// Runs the steps and returns what they produced.
    func run(registry: SceneRegistry, file: String) async throws -> Recording {
        let host = RecordingHost(confirmer: ScriptedConfirmer())
        let context = SceneContext(viewer: viewer, arguments: arguments)
        let instance = try await registry.assemble(scene, for: context, host: host)
        await instance.appear()
        let renderer = TextRenderer(width: width ?? 80)
        func screen() async -> [String] {
            renderer.render(await instance.render()).split(separator: "\n", omittingEmptySubsequences: false).map(String.init)
        }
        var screens = [await screen()]
        var events: [[String]] = []
        for (index, step) in steps.enumerated() {
            let event: Event
            if let id = step.tap {
                do {
                    event = try await instance.render().actionToTap(id).event
                } catch {
                    throw ExpectationFailure("\(file): step \(index + 1): \(error.message)")
                }
            } else if let sent = step.send {
                event = sent
            } else {
                throw ExpectationFailure("\(file): step \(index + 1) has neither \"tap\" nor \"send\"; give one.")
            }
            host.confirmer.enqueue(step.answers ?? [])
            let outcome = await instance.send(event)
            var log = ["\(event.name) from \(event.source)"] + outcome.route.map(\.description) + ["ended \(outcome.result)"]
            log += outcome.navigations.map { "navigated to \($0.scene)" }
            events.append(log)
            screens.append(await screen())
        }
        await instance.leave()
        return Recording(screens: screens, events: events)
    }
}
