import Scenery

/// The host of an interactive session: asks confirmations on the terminal as
/// `Unfollow Alice? [y/N]` (or as a JSON line), reading the answer from the same input as
/// commands, and keeps the updates for the JSON stream.
final class InteractiveHost: SceneHost, Sendable {
    let input: LineReader
    let json: Bool
    private let pending = Mutex<[SceneUpdate]>([])

    init(input: LineReader, json: Bool) {
        self.input = input
        self.json = json
    }

    /// The updates received since the last call.
    func takeUpdates() -> [SceneUpdate] {
        pending.withLock { updates in
            defer { updates = [] }
            return updates
        }
    }

    func sceneDidUpdate(_ update: SceneUpdate) async {
        pending.withLock { $0.append(update) }
    }

    func confirm(_ confirmation: Confirmation) async -> Bool {
        if json {
            StreamLine.write(["type": "confirm", "title": .string(confirmation.title), "message": confirmation.message.map(JSONValue.string) ?? .null,
                              "confirm": .string(confirmation.confirmLabel), "cancel": .string(confirmation.cancelLabel)])
            guard let answer = await input.next() else { return false }
            return ["y", "yes", "true"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
        }
        if let message = confirmation.message { Output.line(TerminalText.sanitized(message)) }
        Output.write("\(TerminalText.sanitized(confirmation.title)) [y/N] ")
        guard let answer = await input.next() else {
            Output.line()
            return false
        }
        let accepted = ["y", "yes"].contains(answer.trimmingCharacters(in: .whitespaces).lowercased())
        Output.line(accepted ? "→ \(TerminalText.sanitized(confirmation.confirmLabel))" : "→ \(TerminalText.sanitized(confirmation.cancelLabel))")
        return accepted
    }

    func navigate(to intent: NavigationIntent) async {}
}

import Foundation
import Synchronization
