import Scenery

/// The host of an interactive session: asks confirmations on the terminal as
/// `Unfollow Alice? [y/N]`, reading the answer from the same input as commands.
struct InteractiveHost: SceneHost {
    let input: LineReader

    func confirm(_ confirmation: Confirmation) async -> Bool {
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
