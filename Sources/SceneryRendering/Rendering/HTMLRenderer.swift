import SceneryText
import SceneryViewTree

/// Renders a view tree as HTML: a complete, self-contained page (inline CSS, no scripts,
/// nothing fetched but images), or fragments for a live host to put into its page.
///
/// Everything from data is escaped; image URLs other than `http:` and `https:` (such as
/// `javascript:` or `data:`) are dropped and the alt text is shown instead; control
/// characters are removed. Controls carry the id a host sends back to activate them in
/// `data-node` (a button's id, `switch#tab` for a tab, a placeholder's id for its retry),
/// and their event in `data-event` and `data-payload`.
///
/// The markup is made for hosts that patch it by node id: every node and section is one
/// element with the node's id, and every container has one element holding its children
/// (`data-slot`; list rows each sit in an `li`). The page has a `main` landmark and an `h1`,
/// headings follow the view tree's roles in order (title `h2`, section header `h2`,
/// headline `h3`), and colours meet WCAG AA contrast. The stylesheet draws with a theme's
/// semantic tokens only (`Theme`, as `var(--scenery-color-…)`), never raw colours.
///
/// ```swift
/// let page = HTMLRenderer().render(await scene.renderDocument(), title: "Profile", language: "en")
/// try page.write(to: URL(filePath: "profile.html"), atomically: true, encoding: .utf8)
/// ```
package struct HTMLRenderer: Sendable {
    /// Whether each module's card is labelled with its id and type (for debugging scenes).
    package var showsModuleLabels: Bool

    /// Whether controls carry the event they send (`data-event`/`data-action` and
    /// `data-payload`), for a host page that wires controls up itself. A live page sends only
    /// the control's `data-node` and leaves the event to the server, so its renderer turns
    /// this off: no payload is encoded for every control of every fragment.
    package var carriesEvents: Bool

    /// Creates a renderer.
    package init(showsModuleLabels: Bool = false, carriesEvents: Bool = true) {
        self.showsModuleLabels = showsModuleLabels
        self.carriesEvents = carriesEvents
    }

    /// The page for a tree: a document with the title as its `h1` and the tree in `main`.
    ///
    /// - Parameters:
    ///   - node: The tree (a scene's, or any subtree).
    ///   - title: The page title and heading.
    ///   - language: The `lang` of the page (BCP 47), such as the scene file's `language`; a
    ///     right-to-left language (`MessageLocale/isRightToLeft`) lays the page out right to
    ///     left (`dir="rtl"`; the CSS uses logical properties, so it mirrors).
    ///   - theme: The colours and sizes the page is drawn with (`Theme`).
    package func render(_ node: ViewNode, title: String = "Scenery", language: String = "en", theme: Theme = .standard) -> String {
        """
        <!DOCTYPE html>
        <html lang="\(Self.attribute(language))"\(MessageLocale(language).isRightToLeft ? " dir=\"rtl\"" : "")>
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src http: https:; style-src 'unsafe-inline'">
        <title>\(Self.escape(title))</title>
        <style>:root{\(theme.cssDeclarations)}\(Self.stylesheet)</style>
        </head>
        <body>
        <main>
        <h1>\(Self.escape(title))</h1>
        \(fragment(node))</main>
        </body>
        </html>

        """
    }

    /// The HTML of one node and its subtree, as it appears in a page.
    package func fragment(_ node: ViewNode) -> String {
        var html = ""
        write(node, into: &html)
        return html
    }

    /// The HTML of one list section and its rows, as it appears in a page.
    package func fragment(_ section: ViewNode.Section, layout: ViewNode.ListLayout = .rows) -> String {
        var html = ""
        write(section, layout: layout, into: &html)
        return html
    }

    /// The HTML of a list row as it sits in its section: the row in an `li`.
    package func rowFragment(_ row: ViewNode) -> String {
        "<li>" + fragment(row) + "</li>\n"
    }

    /// One row of a window of a long list in its `li`, which tells assistive technology
    /// where the row is in the whole list (`aria-posinset` counts from 1).
    ///
    /// ```swift
    /// renderer.rowFragment(row, at: 5000, of: 10_027)   // <li aria-posinset="5001" aria-setsize="10027">…
    /// ```
    package func rowFragment(_ row: ViewNode, at index: Int, of total: Int) -> String {
        "<li aria-posinset=\"\(index + 1)\" aria-setsize=\"\(total)\">" + fragment(row) + "</li>\n"
    }

    /// The page's CSS: a theme's custom properties drawn into cards, lists, buttons, forms,
    /// tabs and placeholders.
    package static var stylesheet: String { PageStylesheet.css }

    private func write(_ node: ViewNode, into html: inout String) {
        let id = Self.attribute(node.id.rawValue)
        // A selectable node is reachable by keyboard; a leaf also says it is a button.
        let selectable =
            node.action.map { action in
                let isLeaf = node.children.isEmpty && !node.isContainer
                return
                    " data-node=\"\(id)\"\(eventAttributes(action, nameAttribute: "data-action")) tabindex=\"0\""
                    + (isLeaf ? " role=\"button\"" : "")
            } ?? ""
        switch node.kind {
        case .text(let text, let role):
            let tag = role == .title ? "h2" : role == .headline ? "h3" : "p"
            let cls = role == .caption ? " class=\"caption\"" : role == .status ? " class=\"status\" role=\"status\"" : ""
            html += "<\(tag) id=\"\(id)\"\(cls)\(selectable)>\(Self.escape(text))</\(tag)>\n"
        case .image(let source, let alt):
            if let url = Self.pictureURL(of: source), Self.isSafeImageURL(url) {
                // A picture's initials: the page's script draws them in its place if it does not load.
                let initials = source.initials.map { " data-initials=\"\(Self.attribute(String($0.prefix(3))))\"" } ?? ""
                html += "<img id=\"\(id)\" src=\"\(Self.attribute(url))\" alt=\"\(Self.attribute(alt))\"\(initials)\(selectable)>\n"
            } else if let initials = source.initials {
                // The letters are drawn for sight; the name is said by the label.
                let role = selectable.isEmpty ? " role=\"img\"" : ""
                html +=
                    "<span id=\"\(id)\" class=\"symbol initials\"\(role) aria-label=\"\(Self.attribute(alt))\"\(selectable)><span aria-hidden=\"true\">\(Self.escape(String(initials.prefix(3))))</span></span>\n"
            } else {
                let role = selectable.isEmpty ? " role=\"img\"" : ""
                // A person with neither picture nor name is drawn as a figure, not a blank.
                let person = if case .symbol(let name) = source, name.hasPrefix("person") { " person" } else { "" }
                html += "<span id=\"\(id)\" class=\"symbol\(person)\"\(role) aria-label=\"\(Self.attribute(alt))\"\(selectable)></span>\n"
            }
        case .button(let title, let event, let style):
            html +=
                "<button type=\"button\" id=\"\(id)\" class=\"\(style.rawValue)\" data-node=\"\(id)\"\(eventAttributes(event))>\(Self.escape(title))</button>\n"
        case .stack(let axis, let children):
            html += "<div id=\"\(id)\" class=\"stack \(axis.rawValue)\"\(selectable)>\n"
            for child in children { write(child, into: &html) }
            html += "</div>\n"
        case .list(let layout, let sections):
            let kind =
                switch layout {
                case .rows: ""
                case .grid, .adaptiveGrid: " grid"
                case .carousel: " carousel"
                }
            html += "<div id=\"\(id)\" class=\"list\(kind)\"\(selectable)>\n"
            for section in sections { write(section, layout: layout, into: &html) }
            html += "</div>\n"
        case .tabs(let tabs) where !tabs.unselectedPanels.isEmpty:
            writeDocumentTabs(tabs, id: id, into: &html)
        case .tabs(let tabs):
            html += "<div id=\"\(id)\" class=\"tabs\">\n<div role=\"tablist\">"
            for tab in tabs.tabs {
                let selected = tab.id == tabs.selection
                let node = Self.attribute(NodeID.tabControl(tab.id, of: node.id).rawValue)
                html +=
                    "<button type=\"button\" role=\"tab\" aria-selected=\"\(selected)\"\(selected ? "" : " tabindex=\"-1\"") aria-controls=\"\(id)--panel\" data-node=\"\(node)\"\(eventAttributes(tab.event))>\(Self.escape(tab.title))</button>"
            }
            let selectedTitle = tabs.tabs.first { $0.id == tabs.selection }?.title ?? tabs.selection
            html += "</div>\n<div id=\"\(id)--panel\" role=\"tabpanel\" aria-label=\"\(Self.attribute(selectedTitle))\" data-slot>\n"
            write(tabs.content, into: &html)
            html += "</div>\n</div>\n"
        case .placeholder(let placeholder):
            let live = placeholder.kind == .loading ? " role=\"status\"" : ""
            html += "<p id=\"\(id)\" class=\"placeholder \(placeholder.kind.rawValue)\"\(live)>\(Self.escape(placeholder.message))"
            if let retry = placeholder.retry {
                html += " <button type=\"button\" data-node=\"\(id)\"\(eventAttributes(retry))>Retry</button>"
            }
            html += "</p>\n"
        case .module(let frame):
            let failed = frame.status == .failed ? " failed" : ""
            // A module still loading (a page streamed before it) is busy for assistive technology.
            let busy = frame.status == .loading ? " aria-busy=\"true\"" : ""
            html +=
                "<section id=\"\(id)\" class=\"module\(failed)\" data-module=\"\(Self.attribute(frame.module.rawValue))\" data-type=\"\(Self.attribute(frame.type))\" data-status=\"\(frame.status.rawValue)\"\(busy)>\n"
            if showsModuleLabels {
                html += "<header>\(Self.escape(frame.module.rawValue)) · \(Self.escape(frame.type))</header>\n"
            }
            html += "<div data-slot>\n"
            write(frame.content, into: &html)
            html += "</div>\n</section>\n"
        case .textField(let field):
            FieldMarkup(field: field, id: id).write(into: &html)
        case .form(let form):
            // The page script submits it (the form's id and what was typed); a click inside
            // it is not a control's, so it has no data-node.
            html += "<form id=\"\(id)\" class=\"form\" data-form=\"\(id)\"\(eventAttributes(form.submit.event)) novalidate>\n"
            for child in form.children { write(child, into: &html) }
            if let error = form.error {
                html += "<p id=\"\(id)--error\" class=\"form-error\" role=\"alert\">\(Self.escape(error))</p>\n"
            }
            html += "<button type=\"submit\" class=\"primary\">\(Self.escape(form.submit.title))</button>\n</form>\n"
        }
    }

    private func write(_ section: ViewNode.Section, layout: ViewNode.ListLayout, into html: inout String) {
        var attributes = ""
        if let first = section.firstRowIndex { attributes += " data-first-row=\"\(first)\"" }
        if let total = section.totalRowCount { attributes += " data-total-rows=\"\(total)\"" }
        html += "<div id=\"\(Self.attribute(section.id.rawValue))\" class=\"section\"\(attributes)>\n"
        if let header = section.header { html += "<h2>\(Self.escape(header))</h2>\n" }
        let listAttributes: String
        switch layout {
        case .rows: listAttributes = ""
        case .grid(let count): listAttributes = " class=\"columns-\(max(1, min(count, 12)))\""
        case .adaptiveGrid(let width): listAttributes = " class=\"cells-\(PageStylesheet.cellWidthClass(width))\""
        case .carousel:
            // A scroller that the keyboard reaches (arrow keys scroll it) and that says what it holds.
            let label = section.header ?? "\(section.rows.count) items"
            listAttributes = " class=\"track\" tabindex=\"0\" aria-label=\"\(Self.attribute(label)), scrolls sideways\""
        }
        html += "<ul data-slot\(listAttributes)>\n"
        if let first = section.firstRowIndex, let total = section.totalRowCount {
            for (offset, row) in section.rows.enumerated() { html += rowFragment(row, at: first + offset, of: total) }
        } else {
            for row in section.rows { html += rowFragment(row) }
        }
        html += "</ul>\n"
        if let footer = section.footer { html += "<p class=\"caption\">\(Self.escape(footer))</p>\n" }
        html += "</div>\n"
    }

    /// A document's tabs: every panel is in the page, and radio buttons switch them without script.
    private func writeDocumentTabs(_ tabs: ViewNode.TabSwitch, id: String, into html: inout String) {
        html += "<div id=\"\(id)\" class=\"tabs document\">\n"
        for (index, tab) in tabs.tabs.enumerated() {
            let checked = tab.id == tabs.selection ? " checked" : ""
            html += "<input type=\"radio\" name=\"\(id)--tab\" id=\"\(id)--tab\(index)\" aria-label=\"\(Self.attribute(tab.title))\"\(checked)>\n"
        }
        html += "<div class=\"tablabels\">"
        for (index, tab) in tabs.tabs.enumerated() {
            html += "<label for=\"\(id)--tab\(index)\">\(Self.escape(tab.title))</label>"
        }
        html += "</div>\n"
        for (tab, content) in tabs.panels {
            html += "<section class=\"tabpanel\" aria-label=\"\(Self.attribute(tab.title))\" data-tab=\"\(Self.attribute(tab.id))\">\n"
            if let content { write(content, into: &html) }
            html += "</section>\n"
        }
        html += "</div>\n"
    }

    /// Text safe between tags: `& < > " '` escaped, control characters removed.
    package static func escape(_ text: String) -> String { escaped(text, inAttribute: false) }

    /// Text safe in a double- or single-quoted attribute value: as ``escape(_:)``, and line
    /// breaks and tabs as character references, so the value keeps them as they were.
    ///
    /// ```swift
    /// "<a title=\"\(HTMLRenderer.escapeAttribute("Ann's \"notes\"\nline 2"))\">"
    /// // <a title="Ann&#39;s &quot;notes&quot;&#10;line 2">
    /// ```
    ///
    /// Text with nothing to escape is returned as it is, without a copy.
    package static func escapeAttribute(_ text: String) -> String { escaped(text, inAttribute: true) }

    private static func attribute(_ text: String) -> String { escapeAttribute(text) }

    private static func escaped(_ text: String, inAttribute: Bool) -> String {
        // Most text has nothing to escape: it is returned as it is, without a copy. A byte
        // below is only a maybe (0xC2 starts U+0080–U+00FF, of which U+0080–U+009F are
        // removed): the loop after it decides.
        let mayChange = text.utf8.contains { byte in
            switch byte {
            case UInt8(ascii: "&"), UInt8(ascii: "<"), UInt8(ascii: ">"), UInt8(ascii: "\""), UInt8(ascii: "'"), 0x7F, 0xC2: true
            case UInt8(ascii: "\n"), UInt8(ascii: "\t"): inAttribute
            default: byte < 0x20
            }
        }
        guard mayChange else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count + 16)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\n": if inAttribute { result += "&#10;" } else { result.unicodeScalars.append(scalar) }
            case "\t": if inAttribute { result += "&#9;" } else { result.unicodeScalars.append(scalar) }
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    /// The URL of an image that is a picture (alone, or with initials for when it fails).
    private static func pictureURL(of source: ViewNode.ImageSource) -> String? {
        switch source {
        case .url(let url), .picture(let url, _): url
        case .symbol, .initials: nil
        }
    }

    /// Whether an image URL may be loaded: `http:` or `https:`, or a path on the page's own
    /// server (`/pictures/alice.svg`). A path is refused when a browser could read it as
    /// another host's (`//host`, `/\host`, or a space or control character it would drop).
    package static func isSafeImageURL(_ url: String) -> Bool {
        let trimmed = url.drop { $0.isWhitespace || $0.unicodeScalars.allSatisfy { $0.value < 0x20 } }.lowercased()
        if trimmed.hasPrefix("/") {
            let rest = trimmed.dropFirst()
            return !rest.isEmpty && !rest.hasPrefix("/") && !trimmed.unicodeScalars.contains { $0.value < 0x21 || $0 == "\\" || $0.value == 0x7F }
        }
        return trimmed.hasPrefix("https://") || trimmed.hasPrefix("http://")
    }

    /// ` data-event="…" data-payload="…"`: what a control sends, for a host page to wire up;
    /// nothing when the renderer does not carry events.
    private func eventAttributes(_ event: EventDescriptor, nameAttribute: String = "data-event") -> String {
        guard carriesEvents else { return "" }
        return " \(nameAttribute)=\"\(Self.attribute(event.name))\" data-payload=\"\(Self.attribute(JSONValue.object(event.payload).compactJSON))\""
    }
}

extension JSONValue {
    /// The value as compact JSON text with sorted keys.
    package var compactJSON: String {
        var text = ""
        writeCompactJSON(into: &text)
        return text
    }

    /// Appends the value as compact JSON text with sorted keys.
    package func writeCompactJSON(into text: inout String) {
        switch self {
        case .null: text += "null"
        case .bool(let value): text += value ? "true" : "false"
        case .int(let value): text += String(value)
        case .double(let value): text += value.isFinite ? String(value) : "null"
        case .string(let value): Self.writeJSONString(value, into: &text)
        case .array(let values):
            text += "["
            for (index, value) in values.enumerated() {
                if index > 0 { text += "," }
                value.writeCompactJSON(into: &text)
            }
            text += "]"
        case .object(let members):
            text += "{"
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { text += "," }
                Self.writeJSONString(member.key, into: &text)
                text += ":"
                member.value.writeCompactJSON(into: &text)
            }
            text += "}"
        }
    }

    /// Appends `value` as a JSON string: quoted, with `"`, `\\` and control characters escaped.
    package static func writeJSONString(_ value: String, into text: inout String) {
        text += "\""
        // Most strings need no escape: appended whole.
        guard value.utf8.contains(where: { $0 < 0x20 || $0 == UInt8(ascii: "\"") || $0 == UInt8(ascii: "\\") }) else {
            text += value
            text += "\""
            return
        }
        for scalar in value.unicodeScalars {
            switch scalar {
            case "\"": text += "\\\""
            case "\\": text += "\\\\"
            case "\n": text += "\\n"
            case "\r": text += "\\r"
            case "\t": text += "\\t"
            default:
                if scalar.value < 0x20 {
                    let hex = String(scalar.value, radix: 16)
                    text += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
                } else {
                    text.unicodeScalars.append(scalar)
                }
            }
        }
        text += "\""
    }
}
