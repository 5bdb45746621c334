import Scenery

extension InteractCommand {
    /// `type FIELD TEXT`: keeps `TEXT` (the rest of the line) as what is typed into the field
    /// with id `FIELD` until its form is submitted; returns what to print (the field's own
    /// check of the text, or why nothing was typed).
    static func type(_ command: Substring, in tree: ViewNode, into typed: inout [NodeID: String]) -> String {
        let parts = command.split(separator: " ", maxSplits: 1, omittingEmptySubsequences: false)
        let id = NodeID(String(parts.first ?? ""))
        guard let node = tree.node(withID: id), case .textField(let field) = node.kind else {
            let fields = tree.textFields.map(\.id.rawValue)
            let known = fields.isEmpty ? "none" : fields.joined(separator: ", ")
            return "No field '\(TerminalText.sanitized(id.rawValue))'. Fields: \(known). Type: type FIELD TEXT"
        }
        let text = parts.count > 1 ? String(parts[1]) : ""
        typed[id] = text
        let shown = "· \(TerminalText.sanitized(field.label)): '\(TerminalText.sanitized(text))'"
        return field.problem(with: text).map { "\(shown) ⚠ \(TerminalText.sanitized($0))" } ?? shown
    }

    /// The event that submits the form `action` activates, with what was typed (each field's
    /// value where nothing was), or a field's change with its typed text: `nil` when the
    /// action is neither, the problems when a host must not send it. A form's typed text is
    /// let go once it is sent.
    static func submission(of action: ViewAction, in tree: ViewNode, typed: inout [NodeID: String]) -> Result<Event, FormProblems>? {
        // A field that sends changes sends what was typed into it.
        if let node = tree.node(withID: action.id), case .textField(let field) = node.kind {
            do {
                return try field.change(to: typed[action.id] ?? field.value, from: action.id).map { .success($0) }
            } catch {
                return .failure(error)
            }
        }
        guard let node = tree.node(withID: action.id), case .form(let form) = node.kind else { return nil }
        let fields = node.textFields
        var values: [String: String] = [:]
        for (id, field) in fields { values[field.name] = typed[id] ?? field.value }
        do {
            let event = try form.submission(of: values, from: action.id)
            for (id, _) in fields { typed[id] = nil }
            return .success(event)
        } catch {
            return .failure(error)
        }
    }

    /// Leaving a scene with typed text not sent (`interact`, `connect`): the first `quit` or
    /// `back` says what would be lost and stays; the next leaves. Typing again asks again.
    struct LeaveGuard {
        private var hasWarned = false

        /// What to print instead of leaving: the fields whose typed text was not sent, and
        /// how to send it or leave it; `nil` to leave now (nothing unsent, or said already).
        /// `command` is what leaves (`quit`, `back`), to type again.
        mutating func warning(_ typed: [NodeID: String], in tree: ViewNode, leavingWith command: String) -> String? {
            guard !hasWarned else { return nil }
            let labels = tree.textFields.filter { entry in typed[entry.id].map { $0 != entry.field.value } ?? false }.map(\.field.label)
            guard !labels.isEmpty else { return nil }
            hasWarned = true
            return
                "What you typed into \(labels.joined(separator: ", ")) is not sent. Send its form (type its number) to keep it, or type '\(command)' again to leave without it."
        }

        /// Something was typed, or the scene changed: the next leave asks again.
        mutating func reset() { hasWarned = false }
    }

    /// Prints the fields of `node`, with what they hold, for `type FIELD TEXT`.
    static func printFields(of node: ViewNode, typed: [NodeID: String]) {
        let fields = node.textFields
        guard !fields.isEmpty else { return }
        Output.line("Fields (type FIELD TEXT, then the form's number):")
        for (id, field) in fields {
            let text = typed[id] ?? field.value
            Output.line("  \(TerminalText.sanitized(id.rawValue))  \(TerminalText.sanitized(field.label)): '\(TerminalText.sanitized(text))'")
        }
    }
}
