import Scenery

extension InteractCommand {
    /// Prints a node's actions, numbered by their place among the whole tree's, in `style`
    /// within `width` columns; returns the numbers printed.
    @discardableResult
    static func printActions(
        of node: ViewNode, in tree: ViewNode, style: ActionListOption.Style = .ids, width: Int = 80
    ) -> ActionNumbering {
        var printed = ActionNumbering()
        let all = tree.actions
        let mine = Set(node.actions.map(\.id))
        let listed = all.enumerated().filter { mine.contains($0.element.id) }
        guard !listed.isEmpty else { return printed }
        for (index, action) in listed { printed.numbers[index + 1] = action.id }
        switch style {
        case .ids:
            Output.line("Actions:")
            let digits = String(all.count).count
            for (index, action) in listed {
                let handle = String(repeating: " ", count: digits - String(index + 1).count) + String(index + 1)
                let title = Self.title(of: action, among: all)
                // Cut by display columns, as the compact list cuts: a wide character takes two.
                Output.line("  \(handle)  \(TerminalText.padded(Self.clipped(title, to: 40), to: 40))  \(TerminalText.sanitized(action.id.rawValue))")
            }
        case .compact:
            Output.line("Actions (type a number; 'ids' lists them with their ids):")
            for line in compactLines(listed.map { ($0.offset + 1, $0.element) }, among: all, width: width) { Output.line(line) }
        }
        return printed
    }

    /// The compact list's lines: one group of lines per module (or tab switch), its name
    /// first, then `number) title` entries packed to `width`, each title cut to 28 columns.
    /// A button listed right after its row (a like after its blog) is named alone.
    static func compactLines(_ actions: [(number: Int, action: ViewAction)], among all: [ViewAction], width: Int) -> [String] {
        var rowBefore: NodeID?
        let groups = actions.reduce(into: [(label: String, entries: [String])]()) { groups, item in
            let label = TerminalText.sanitized(String(item.action.id.rawValue.prefix { $0 != "/" && $0 != "#" }))
            let row = row(of: item.action, among: all)
            let title = row != nil && row?.id == rowBefore ? ownTitle(of: item.action) : title(of: item.action, row: row)
            rowBefore = row?.id ?? item.action.id
            let entry = "\(item.number)) " + clipped(title, to: 28)
            if groups.last?.label == label {
                groups[groups.count - 1].entries.append(entry)
            } else {
                groups.append((label, [entry]))
            }
        }
        let labelWidth = min(12, groups.map { TerminalText.displayWidth(of: $0.label) }.max() ?? 0)
        let indent = String(repeating: " ", count: 4 + labelWidth)
        var lines: [String] = []
        for group in groups {
            var line = "  " + TerminalText.padded(clipped(group.label, to: labelWidth), to: labelWidth) + "  "
            var columns = TerminalText.displayWidth(of: line)
            var isEmpty = true
            for entry in group.entries {
                let entryWidth = TerminalText.displayWidth(of: entry)
                if !isEmpty, columns + 3 + entryWidth > width {
                    lines.append(line)
                    line = indent
                    columns = indent.count
                    isEmpty = true
                }
                line += (isEmpty ? "" : "   ") + entry
                columns += (isEmpty ? 0 : 3) + entryWidth
                isEmpty = false
            }
            lines.append(line)
        }
        return lines
    }

    /// An action's title on one line, for a terminal; a button inside a selectable row
    /// ("blogs/blog.27.like" in "blogs/blog.27") names its row.
    static func title(of action: ViewAction, among all: [ViewAction]) -> String {
        title(of: action, row: row(of: action, among: all))
    }

    /// An action's title followed by its row's, if it has one.
    private static func title(of action: ViewAction, row: ViewAction?) -> String {
        guard let row else { return ownTitle(of: action) }
        return ownTitle(of: action) + " · " + ownTitle(of: row)
    }

    /// The selectable row a button sits in (`blogs/blog.27` for `blogs/blog.27.like`), if any.
    private static func row(of action: ViewAction, among all: [ViewAction]) -> ViewAction? {
        all.first { action.id.rawValue.hasPrefix($0.id.rawValue + ".") }
    }

    /// An action's own title on one line, for a terminal.
    static func ownTitle(of action: ViewAction) -> String {
        TerminalText.sanitized(action.title).replacingOccurrences(of: "\n", with: " ")
    }

    /// `text` cut to `width` display columns, with "…" where it was cut.
    static func clipped(_ text: String, to width: Int) -> String {
        guard TerminalText.displayWidth(of: text) > width else { return text }
        var kept = ""
        var columns = 0
        for character in text {
            let characterWidth = TerminalText.width(of: character)
            if columns + characterWidth > width - 1 { break }
            kept.append(character)
            columns += characterWidth
        }
        return kept + "…"
    }

    /// The action a command names: a number as it was last printed (without `numbering`, the
    /// action's place among the tree's), else a control's id.
    static func action(for command: String, in actions: [ViewAction], numbering: ActionNumbering?) -> ViewAction? {
        if let number = Int(command) {
            guard let numbering else { return actions.indices.contains(number - 1) ? actions[number - 1] : nil }
            return numbering.numbers[number].flatMap { id in actions.first { $0.id == id } }
        }
        return actions.first { $0.id.rawValue == command }
    }
}

/// The number each action was last printed with. A person types what they saw: after a
/// change printed one module again, the numbers of the actions elsewhere on the page may
/// have moved (an action added above them), but what was printed for them still stands.
struct ActionNumbering {
    /// The action printed with each number.
    var numbers: [Int: NodeID] = [:]

    /// Takes the numbers printed since (a later print of a number wins).
    mutating func merge(_ printed: ActionNumbering) {
        numbers.merge(printed.numbers) { _, new in new }
    }
}

extension InteractCommand {
    /// Prints what `inspect ID` found: the module, where its scene file placed it, the
    /// variant and arms; or that no module of the page shows that id.
    static func printInspection(_ inspection: SceneInstance.Inspection?, of id: NodeID, json: Bool) {
        guard let inspection else {
            printProblem("No module of this scene shows \(id.rawValue.quoted); type ids for the controls' ids.", json: json)
            return
        }
        guard json else {
            Output.line(TerminalText.sanitized(inspection.description))
            return
        }
        guard case .object(var fields)? = try? JSONValueEncoder().encode(inspection) else {
            return printProblem("The inspection of \(id.rawValue.quoted) could not be written as JSON.", json: true)
        }
        fields["type"] = "inspection"
        StreamLine.write(fields)
    }

    /// Prints `trace`: the scene's recent events, oldest first, each on a line with its route
    /// (an ``EventOutcome``'s description: `interact`'s own scene, or what a server sent `connect`).
    static func printTrace(_ events: [String], json: Bool) {
        guard json else {
            Output.line(events.isEmpty ? "No events yet." : events.map { TerminalText.sanitized("· \($0)") }.joined(separator: "\n"))
            return
        }
        StreamLine.write(["type": "trace", "events": .array(events.map { .string($0) })])
    }

    /// Prints what went wrong with a command: an `error` line in JSON, else the text.
    static func printProblem(_ message: String, json: Bool) {
        if json {
            StreamLine.write(["type": "error", "message": .string(message)])
        } else {
            Output.line(TerminalText.sanitized(message))
        }
    }
}
