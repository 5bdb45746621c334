/// Renders a view tree as plain text for a terminal.
///
/// Modules are framed with their id and type, lists show sections and bullet rows,
/// buttons show as `[ Title ]`, tabs as `◉ Selected  ○ Other`, and placeholders say
/// what is going on. Text from data is sanitised (``TerminalText/sanitized(_:)``) and
/// wrapped by display width, so CJK text lines up.
///
/// ```swift
/// let text = TextRenderer(width: 72).render(await scene.render())
/// print(text)
/// ```
public struct TextRenderer: Sendable {
    /// The number of columns to fit into.
    public var width: Int

    /// Creates a renderer for a width (at least 20 columns).
    public init(width: Int = 80) {
        self.width = max(width, 20)
    }

    /// The tree as lines of text joined by newlines, ending with a newline.
    public func render(_ node: ViewNode) -> String {
        lines(for: node, width: width).joined(separator: "\n") + "\n"
    }

    /// A control as `[ Title ]`, bound with no-break spaces so wrapping never splits its brackets.
    static func control(_ title: String) -> String {
        "[\u{00A0}\(title)\u{00A0}]"
    }

    private func clean(_ text: String) -> String {
        TerminalText.sanitized(text)
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
            let wrapped = TerminalText.wrap(clean(text), width: width)
            guard role == .title else { return wrapped }
            let underline = min(width, wrapped.map(TerminalText.displayWidth(of:)).max() ?? 0)
            return wrapped + [String(repeating: "═", count: max(underline, 1))]
        case .image(_, let alt):
            return TerminalText.wrap("[image: \(clean(alt))]", width: width)
        case .button(let title, _, _):
            return TerminalText.wrap(Self.control(clean(title)), width: width)
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
            let bar = tabs.tabs.map { ($0.id == tabs.selection ? "◉ " : "○ ") + clean($0.title) }.joined(separator: "   ")
            return TerminalText.wrap(bar, width: width) + lines(for: tabs.content, width: width)
        case .placeholder(let placeholder):
            let message = clean(placeholder.message)
            switch placeholder.kind {
            case .loading: return TerminalText.wrap("… \(message)", width: width)
            case .empty: return TerminalText.wrap("(\(message))", width: width)
            case .error:
                let retry = placeholder.retry == nil ? "" : " " + Self.control("Retry")
                return TerminalText.wrap("⚠ \(message)\(retry)", width: width)
            }
        case .module(let frame):
            let label = "┌─ \(clean(frame.module.rawValue)) · \(clean(frame.type)) "
            let header = label + String(repeating: "─", count: max(1, width - TerminalText.displayWidth(of: label)))
            let body = lines(for: frame.content, width: width - 2).map { "│ " + $0 }
            return [header] + body + ["└" + String(repeating: "─", count: width - 1)]
        }
    }

    private func listLines(_ section: ViewNode.Section, layout: ViewNode.ListLayout, width: Int) -> [String] {
        var result: [String] = []
        if let header = section.header {
            result.append(contentsOf: TerminalText.wrap("── \(clean(header)) ──", width: width))
        }
        if case .grid(let columns) = layout, columns > 1 {
            let cellWidth = max(4, (width - 2 * (columns - 1)) / columns)
            let cells = section.rows.map { TerminalText.wrap(lines(for: $0, width: cellWidth).joined(separator: " "), width: cellWidth) }
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
                    result.append((index == 0 ? "• " : "  ") + line)
                }
            }
        }
        if let footer = section.footer {
            result.append(contentsOf: TerminalText.wrap(clean(footer), width: width))
        }
        return result
    }
}
