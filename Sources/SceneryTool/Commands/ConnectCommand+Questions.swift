import Scenery
import SceneryPageProtocol

extension ConnectCommand {
    /// A question of the server the person has yet to answer, and the action it holds up.
    typealias OpenQuestion = (number: Int, action: ActionKey?)

    /// Asks the person the server's question `number`, which holds up `action`; returns it as
    /// the question to answer with the next line typed, or `nil` when it is answered here:
    /// the person answered it already (the server the page came back to after its own went
    /// away asks again for the same action), or is leaving (no, as an unanswered question means).
    static func ask(
        _ number: Int, _ confirmation: Confirmation, holdingUp action: ActionKey?, on page: inout PageConnection, leaving: Bool
    ) -> OpenQuestion? {
        if let given = page.answer(for: action) {
            Output.line("· asked again after reconnecting: answered \(given ? "yes" : "no"), as before")
            page.answer(number, accept: given, for: action)
            return nil
        }
        let detail = confirmation.message.map { " " + TerminalText.sanitized($0) } ?? ""
        Output.line("? \(TerminalText.sanitized(confirmation.title))\(detail) [y/N]")
        guard !leaving else {
            Output.line("· leaving: answered no")
            page.answer(number, accept: false, for: action)
            return nil
        }
        return (number, action)
    }
}
