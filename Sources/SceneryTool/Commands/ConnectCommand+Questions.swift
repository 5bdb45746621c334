import Scenery
import SceneryPageProtocol

extension ConnectCommand {
    /// Shows the server's question, which holds up `action`, for the next line typed to
    /// answer — unless the page answered it already (the person answered it before, and the
    /// server the page came back to after its own went away asked again for the same action),
    /// or the person is leaving (no, as an unanswered question means).
    static func ask(_ confirmation: Confirmation, holdingUp action: ActionKey?, on page: inout PageConnection, leaving: Bool) {
        guard page.client.question != nil else {
            if let given = page.client.answer(for: action) {
                Output.line("· asked again after reconnecting: answered \(given ? "yes" : "no"), as before")
            }
            return
        }
        let detail = confirmation.message.map { " " + TerminalText.sanitized($0) } ?? ""
        Output.line("? \(TerminalText.sanitized(confirmation.title))\(detail) [y/N]")
        guard !leaving else {
            Output.line("· leaving: answered no")
            page.answer(false)
            return
        }
    }
}
