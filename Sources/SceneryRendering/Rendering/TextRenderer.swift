import SceneryViewTree

/// Renders a view tree as plain text for a terminal.
///
/// Modules are framed with their id and type, lists show sections and bullet rows,
/// buttons show as `[ Title ]`, tabs as `◉ Selected  ○ Other`, and placeholders say
/// what is going on. Text from data is sanitised (`TerminalText.sanitized(_:)`) and
/// wrapped by display width, so CJK text lines up.
///
/// ```swift
/// let text = TextRenderer(width: 72).render(await scene.render())
/// print(text)
/// ```
///
/// For a right-to-left language (`MessageLocale/isRightToLeft`) the layout is mirrored:
/// lines are aligned to the right edge and start with a right-to-left mark (so a terminal
/// that applies the bidirectional algorithm lays each line out right to left), frames open
/// on the right and bullets stand at the line's end. A terminal shows the letters of each
/// line in its own order; only the layout is the renderer's.
package struct TextRenderer: Sendable {
    /// The number of columns to fit into.
    package var width: Int
    /// Whether to colour the text with terminal escape sequences: captions dimmed, titles
    /// bold, controls and the selected tab highlighted, errors red. Use it only when the
    /// output is a terminal and `NO_COLOR` is not set.
    package var usesColor: Bool
    /// Whether the layout is mirrored for a right-to-left language.
    package var isRightToLeft: Bool
    /// The theme whose semantic colours paint the text when ``usesColor`` is on (24-bit
    /// colour sequences: controls in `color.accent`, errors in `color.danger`, captions in
    /// `color.text-muted`, the selected tab in `color.selected`); `nil` paints with the
    /// terminal's own 16 colours.
    package var theme: Theme?

    /// Creates a renderer for a width (20 to 1,000 columns).
    ///
    /// ```swift
    /// TextRenderer(width: 72, isRightToLeft: MessageLocale("ar").isRightToLeft)
    /// ```
    package init(width: Int = 80, usesColor: Bool = false, isRightToLeft: Bool = false, theme: Theme? = nil) {
        self.width = min(max(width, 20), 1000)
        self.usesColor = usesColor
        self.isRightToLeft = isRightToLeft
        self.theme = theme
    }

    /// The tree as lines of text joined by newlines, ending with a newline.
    package func render(_ node: ViewNode) -> String {
        var rendered = lines(for: node, width: width)
        if isRightToLeft { rendered = rendered.map { Self.rightToLeftMark + aligned($0, to: width) } }
        return rendered.joined(separator: "\n") + "\n"
    }

    /// U+200F, which makes a line's paragraph direction right to left in a terminal that
    /// applies the bidirectional algorithm, and takes no column.
    package static let rightToLeftMark = "\u{200F}"

    /// A line moved to the far edge of `width` columns (the right, in a right-to-left
    /// layout); lines are left as they are otherwise.
    private func aligned(_ line: String, to width: Int) -> String {
        guard isRightToLeft else { return line }
        let shown = TerminalText.displayWidth(of: line)
        return String(repeating: " ", count: max(0, width - shown)) + line
    }

    /// A control as `[ Title ]` (plain spaces, so a copied line greps).
    package static func control(_ title: String) -> String {
        "[ \(title) ]"
    }

    private func clean(_ text: String) -> String {
        TerminalText.sanitized(text)
    }

    /// Colour sequences (select graphic rendition) this renderer uses.
    private enum Paint: String {
        case dim = "2"
        case bold = "1"
        case control = "1;36"
        case selected = "1;7"
        case error = "31"

        /// The sequence in a theme's semantic colours (24-bit), else the terminal's own.
        package func sequence(in theme: Theme?) -> String {
            guard let theme else { return rawValue }
            func foreground(_ color: ThemeColor) -> String? { theme.colors[color].map { "38;2;\(Self.channels(of: $0))" } }
            func background(_ color: ThemeColor) -> String? { theme.colors[color].map { "48;2;\(Self.channels(of: $0))" } }
            let themed: String? =
                switch self {
                case .dim: foreground(.textMuted)
                case .bold: nil
                case .control: foreground(.accent).map { "1;" + $0 }
                case .selected: foreground(.onSelected).flatMap { text in background(.selected).map { "1;\(text);\($0)" } }
                case .error: foreground(.danger)
                }
            return themed ?? rawValue
        }

        private static func channels(of color: Theme.Color) -> String {
            [color.red, color.green, color.blue].map { String(Int(($0 * 255).rounded())) }.joined(separator: ";")
        }
    }

    /// `text` in a colour, when colour is on; each line is painted on its own so wrapping
    /// and framing never carry a colour over.
    private func paint(_ lines: [String], _ paint: Paint) -> [String] {
        guard usesColor else { return lines }
        let sequence = paint.sequence(in: theme)
        return lines.map { $0.isEmpty ? $0 : "\u{1B}[\(sequence)m\($0)\u{1B}[0m" }
    }

    private func lines(for node: ViewNode, width: Int) -> [String] {
        // A selectable node shows a "›" after its first line.
        guard node.action == nil else {
            var plain = node
            plain.action = nil
            var rendered = lines(for: plain, width: width - 2)
            if !rendered.isEmpty { rendered[0] += " ›" }
            return rendered
        }
        switch node.kind {
        case .text(let text, let role):
            if role == .status { return paint(TerminalText.wrap("⚠ " + clean(text), width: width), .bold) }
            let wrapped = TerminalText.wrap(clean(text), width: width)
            if role == .caption { return paint(wrapped, .dim) }
            guard role == .title else { return wrapped }
            let underline = min(width, wrapped.map(TerminalText.displayWidth(of:)).max() ?? 0)
            return paint(wrapped, .bold) + [String(repeating: "═", count: max(underline, 1))]
        case .image(_, let alt):
            return TerminalText.wrap("[image: \(clean(alt))]", width: width)
        case .button(let title, _, _):
            return paint(TerminalText.wrap(Self.control(clean(title)), width: width), .control)
        case .stack(let axis, let children):
            let rendered = children.map { lines(for: $0, width: width) }
            if axis == .horizontal, rendered.allSatisfy({ $0.count == 1 }) {
                let joined = rendered.map { $0[0] }.joined(separator: "  ")
                if TerminalText.displayWidth(of: joined) <= width { return [joined] }
            }
            return rendered.flatMap { $0 }
        case .list(let layout, let sections):
            return sections.flatMap { section in listLines(section, layout: layout, width: width) }
        case .tabs(let tabs):
            let bar = tabs.tabs.map { tab in
                tab.id == tabs.selection ? paint(["◉ " + clean(tab.title)], .selected)[0] : "○ " + clean(tab.title)
            }.joined(separator: "   ")
            return TerminalText.wrap(bar, width: width) + lines(for: tabs.content, width: width)
        case .placeholder(let placeholder):
            let message = clean(placeholder.message)
            switch placeholder.kind {
            case .loading: return TerminalText.wrap("… \(message)", width: width)
            case .empty: return TerminalText.wrap("(\(message))", width: width)
            case .error:
                var wrapped = TerminalText.wrap("⚠ \(message)", width: width)
                if placeholder.retry != nil {
                    // The control stays whole: on the last line if it fits, else on its own.
                    let retry = Self.control("Retry")
                    let last = wrapped.count - 1
                    if TerminalText.displayWidth(of: wrapped[last]) + 1 + TerminalText.displayWidth(of: retry) <= width {
                        wrapped[last] += " " + retry
                    } else {
                        wrapped.append(retry)
                    }
                }
                return paint(wrapped, .error)
            }
        case .textField(let field):
            // "Title: [what it holds]", the error under it.
            let shown = field.value.isEmpty ? (field.placeholder.map { "(\($0))" } ?? "") : field.value
            var result = TerminalText.wrap("\(clean(field.label)): [\(clean(shown))]", width: width)
            if let error = field.error { result += paint(TerminalText.wrap("⚠ \(clean(error))", width: width), .error) }
            return result
        case .form(let form):
            var result = form.children.flatMap { lines(for: $0, width: width) }
            if let error = form.error { result += paint(TerminalText.wrap("⚠ \(clean(error))", width: width), .error) }
            return result + paint(TerminalText.wrap(Self.control(clean(form.submit.title)), width: width), .control)
        case .module(let frame):
            if isRightToLeft {
                let label = " \(clean(frame.type)) · \(clean(frame.module.rawValue)) ─┐"
                let header = String(repeating: "─", count: max(1, width - TerminalText.displayWidth(of: label))) + label
                let body = lines(for: frame.content, width: width - 2).map { aligned($0, to: width - 2) + " │" }
                return paint([header], .dim) + body + paint([String(repeating: "─", count: width - 1) + "┘"], .dim)
            }
            let label = "┌─ \(clean(frame.module.rawValue)) · \(clean(frame.type)) "
            let header = label + String(repeating: "─", count: max(1, width - TerminalText.displayWidth(of: label)))
            let body = lines(for: frame.content, width: width - 2).map { "│ " + $0 }
            return paint([header], .dim) + body + paint(["└" + String(repeating: "─", count: width - 1)], .dim)
        }
    }

    private func listLines(_ section: ViewNode.Section, layout: ViewNode.ListLayout, width: Int) -> [String] {
        var result: [String] = []
        if let header = section.header {
            result.append(contentsOf: TerminalText.wrap("── \(clean(header)) ──", width: width))
        }
        // Cells side by side: a grid's columns, as many minimum-width cells as fit, or a
        // carousel's band (every item, in bands of cells as wide as a card).
        let cardWidth = min(width, 28)
        let cellsAcross: Int? =
            switch layout {
            case .rows: nil
            case .grid(let columns): columns > 1 ? columns : nil
            case .adaptiveGrid(let minimum): max(1, (width + 2) / (max(4, minimum) + 2))
            case .carousel: max(1, (width + 2) / (cardWidth + 2))
            }
        if let columns = cellsAcross, columns > 1 || layout == .carousel {
            if layout == .carousel, !section.rows.isEmpty {
                result.append(paint(["⇆ \(section.rows.count) item\(section.rows.count == 1 ? "" : "s"), side by side"], .dim)[0])
            }
            let cellWidth = layout == .carousel ? cardWidth : max(4, (width - 2 * (columns - 1)) / columns)
            // Each cell keeps its own lines (a button stays whole), padded to the cell's width.
            let cells = section.rows.map { lines(for: $0, width: cellWidth) }
            var index = 0
            while index < cells.count {
                let rowCells = Array(cells[index..<min(index + columns, cells.count)])
                let height = rowCells.map(\.count).max() ?? 0
                for line in 0..<height {
                    let parts = rowCells.map { TerminalText.padded(line < $0.count ? $0[line] : "", to: cellWidth) }
                    result.append(String(parts.joined(separator: "  ").reversed().drop { $0 == " " }.reversed()))
                }
                index += columns
            }
        } else {
            for row in section.rows {
                let rowLines = lines(for: row, width: width - 2)
                for (index, line) in rowLines.enumerated() {
                    if isRightToLeft {
                        result.append(aligned(line, to: width - 2) + (index == 0 ? " •" : "  "))
                    } else {
                        result.append((index == 0 ? "• " : "  ") + line)
                    }
                }
            }
        }
        if let first = section.firstRowIndex, let total = section.totalRowCount {
            // A window of a long list says which rows it holds (counted from 1).
            let shown = section.rows.isEmpty ? "no rows" : "rows \(first + 1)–\(first + section.rows.count)"
            result.append(paint(["\(shown) of \(total)"], .dim)[0])
        }
        if let footer = section.footer {
            result.append(contentsOf: TerminalText.wrap(clean(footer), width: width))
        }
        return result
    }
}
