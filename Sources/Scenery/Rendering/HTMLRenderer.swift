/// Renders a view tree as a complete, self-contained HTML page (inline CSS, no scripts,
/// nothing fetched but images).
///
/// Everything from data is escaped; image URLs other than `http:` and `https:` (such as
/// `javascript:` or `data:`) are dropped and the alt text is shown instead; control
/// characters are removed. Controls are rendered as disabled-looking buttons carrying
/// their event in `data-event` and `data-payload` attributes, for a host page to wire up.
///
/// ```swift
/// let page = HTMLRenderer().render(await scene.render(), title: "Profile")
/// try page.write(to: URL(filePath: "profile.html"), atomically: true, encoding: .utf8)
/// ```
public struct HTMLRenderer: Sendable {
    /// Creates a renderer.
    public init() {}

    /// The page for a tree.
    public func render(_ node: ViewNode, title: String = "Scenery") -> String {
        var body = ""
        write(node, into: &body, depth: 0)
        return """
            <!DOCTYPE html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <meta http-equiv="Content-Security-Policy" content="default-src 'none'; img-src http: https:; style-src 'unsafe-inline'">
            <title>\(Self.escape(title))</title>
            <style>\(Self.style)</style>
            </head>
            <body>
            \(body)</body>
            </html>

            """
    }

    static let style = """
        body{font:15px/1.45 -apple-system,"Segoe UI","Noto Sans","Noto Sans CJK SC","PingFang SC",sans-serif;max-width:760px;margin:24px auto;padding:0 16px;color:#1d1d1f;background:#fafafa}\
        section.module{border:1px solid #d8d8dc;border-radius:10px;background:#fff;margin:0 0 16px;padding:12px 16px}\
        section.module>header{font-size:11px;color:#8a8a8e;text-transform:uppercase;letter-spacing:.04em;margin-bottom:8px}\
        section.failed{border-color:#e0a0a0}\
        h1{font-size:24px;margin:4px 0}h2{font-size:17px;margin:2px 0}p{margin:4px 0}.caption{color:#6e6e73;font-size:13px}\
        .stack.horizontal{display:flex;gap:12px;align-items:center;flex-wrap:wrap}\
        .list>h3{font-size:13px;color:#6e6e73;text-transform:uppercase;margin:12px 0 4px}ul{list-style:none;margin:0;padding:0}\
        li{border-top:1px solid #eee;padding:8px 0}.grid ul{display:grid;gap:8px}\
        button{font:inherit;border:1px solid #c7c7cc;background:#f2f2f7;border-radius:6px;padding:2px 10px}\
        button.primary{background:#0a84ff;color:#fff;border-color:#0a84ff}button.destructive{color:#d70015}\
        img{width:48px;height:48px;border-radius:50%;object-fit:cover;background:#eee}.symbol{display:inline-block;width:48px;height:48px;border-radius:50%;background:#e5e5ea}\
        .tabs>nav{display:flex;gap:8px;margin:8px 0}.tabs>nav button[aria-selected=true]{background:#1d1d1f;color:#fff}\
        .tabs.document>input{position:absolute;opacity:0;width:1px;height:1px}.tabs.document>nav{display:flex;gap:8px;margin:8px 0}\
        .tabs.document>nav label{border:1px solid #c7c7cc;background:#f2f2f7;border-radius:6px;padding:2px 10px;cursor:pointer}\
        .tabs.document>section.tabpanel{display:none}\
        \(documentTabRules)\
        .placeholder{color:#6e6e73;font-style:italic}.placeholder.error{color:#d70015;font-style:normal}\
        [data-action]{cursor:pointer}
        """

    /// The CSS that shows the checked tab's panel of a document, for up to 12 tabs.
    static let documentTabRules = (1...12).map { n in
        ".tabs.document>input:nth-of-type(\(n)):checked~section.tabpanel:nth-of-type(\(n)){display:block}"
            + ".tabs.document>input:nth-of-type(\(n)):checked~nav label:nth-of-type(\(n)){background:#1d1d1f;color:#fff}"
            + ".tabs.document>input:nth-of-type(\(n)):focus-visible~nav label:nth-of-type(\(n)){outline:2px solid #0a84ff}"
    }.joined()

    private func write(_ node: ViewNode, into html: inout String, depth: Int) {
        let id = Self.attribute(node.id.rawValue)
        let action = node.action.map { " data-action=\"\(Self.attribute($0.name))\" data-payload=\"\(Self.attribute(Self.payload($0)))\"" } ?? ""
        switch node.kind {
        case .text(let text, let role):
            let tag = role == .title ? "h1" : role == .headline ? "h2" : "p"
            let cls = role == .caption ? " class=\"caption\"" : ""
            html += "<\(tag) id=\"\(id)\"\(cls)\(action)>\(Self.escape(text))</\(tag)>\n"
        case .image(let source, let alt):
            if case .url(let url) = source, Self.isSafeImageURL(url) {
                html += "<img id=\"\(id)\" src=\"\(Self.attribute(url))\" alt=\"\(Self.attribute(alt))\"\(action)>\n"
            } else {
                html += "<span id=\"\(id)\" class=\"symbol\" role=\"img\" aria-label=\"\(Self.attribute(alt))\"\(action)></span>\n"
            }
        case .button(let title, let event, let style):
            html += "<button type=\"button\" id=\"\(id)\" class=\"\(style.rawValue)\" \(Self.eventAttributes(event))>\(Self.escape(title))</button>\n"
        case .stack(let axis, let children):
            html += "<div id=\"\(id)\" class=\"stack \(axis.rawValue)\"\(action)>\n"
            children.forEach { write($0, into: &html, depth: depth + 1) }
            html += "</div>\n"
        case .list(let layout, let sections):
            let grid = layout == .rows ? "" : " grid"
            html += "<div id=\"\(id)\" class=\"list\(grid)\"\(action)>\n"
            for section in sections {
                if let header = section.header { html += "<h3>\(Self.escape(header))</h3>\n" }
                let columns: String
                if case .grid(let count) = layout { columns = " style=\"grid-template-columns:repeat(\(max(1, min(count, 12))),1fr)\"" } else { columns = "" }
                html += "<ul id=\"\(Self.attribute(section.id.rawValue))\"\(columns)>\n"
                for row in section.rows {
                    html += "<li>"
                    write(row, into: &html, depth: depth + 1)
                    html += "</li>\n"
                }
                html += "</ul>\n"
                if let footer = section.footer { html += "<p class=\"caption\">\(Self.escape(footer))</p>\n" }
            }
            html += "</div>\n"
        case .tabs(let tabs) where !tabs.unselectedPanels.isEmpty:
            // A document: every panel is in the page, and radio buttons switch them without script.
            html += "<div id=\"\(id)\" class=\"tabs document\">\n"
            for (index, tab) in tabs.tabs.enumerated() {
                let checked = tab.id == tabs.selection ? " checked" : ""
                html += "<input type=\"radio\" name=\"\(id)--tab\" id=\"\(id)--tab\(index)\" aria-label=\"\(Self.attribute(tab.title))\"\(checked)>\n"
            }
            html += "<nav>"
            for (index, tab) in tabs.tabs.enumerated() {
                html += "<label for=\"\(id)--tab\(index)\">\(Self.escape(tab.title))</label>"
            }
            html += "</nav>\n"
            for (tab, content) in tabs.panels {
                html += "<section class=\"tabpanel\" aria-label=\"\(Self.attribute(tab.title))\" data-tab=\"\(Self.attribute(tab.id))\">\n"
                if let content { write(content, into: &html, depth: depth + 1) }
                html += "</section>\n"
            }
            html += "</div>\n"
        case .tabs(let tabs):
            html += "<div id=\"\(id)\" class=\"tabs\">\n<nav role=\"tablist\">"
            for tab in tabs.tabs {
                html += "<button type=\"button\" role=\"tab\" aria-selected=\"\(tab.id == tabs.selection)\" \(Self.eventAttributes(tab.event))>\(Self.escape(tab.title))</button>"
            }
            html += "</nav>\n"
            write(tabs.content, into: &html, depth: depth + 1)
            html += "</div>\n"
        case .placeholder(let placeholder):
            html += "<p id=\"\(id)\" class=\"placeholder \(placeholder.kind.rawValue)\">\(Self.escape(placeholder.message))"
            if let retry = placeholder.retry {
                html += " <button type=\"button\" \(Self.eventAttributes(retry))>Retry</button>"
            }
            html += "</p>\n"
        case .module(let frame):
            let failed = frame.status == .failed ? " failed" : ""
            html += "<section id=\"\(id)\" class=\"module\(failed)\" data-module=\"\(Self.attribute(frame.module.rawValue))\" data-type=\"\(Self.attribute(frame.type))\" data-status=\"\(frame.status.rawValue)\">\n"
            html += "<header>\(Self.escape(frame.module.rawValue)) · \(Self.escape(frame.type))</header>\n"
            write(frame.content, into: &html, depth: depth + 1)
            html += "</section>\n"
        }
    }

    /// Text safe between tags: `& < > " '` escaped, control characters removed.
    public static func escape(_ text: String) -> String {
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            case "\n", "\t": result.unicodeScalars.append(scalar)
            default:
                if scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) { continue }
                result.unicodeScalars.append(scalar)
            }
        }
        return result
    }

    private static func attribute(_ text: String) -> String {
        escape(text).replacingOccurrences(of: "\n", with: "&#10;").replacingOccurrences(of: "\t", with: "&#9;")
    }

    /// Whether an image URL may be loaded: `http:` or `https:` only.
    public static func isSafeImageURL(_ url: String) -> Bool {
        let trimmed = url.drop { $0.isWhitespace || $0.unicodeScalars.allSatisfy { $0.value < 0x20 } }.lowercased()
        return trimmed.hasPrefix("https://") || trimmed.hasPrefix("http://")
    }

    /// `data-event="…" data-payload="…"`: what a control sends, for a host page to wire up.
    private static func eventAttributes(_ event: EventDescriptor) -> String {
        "data-event=\"\(attribute(event.name))\" data-payload=\"\(attribute(payload(event)))\""
    }

    private static func payload(_ event: EventDescriptor) -> String {
        JSONValue.object(event.payload).compactJSON
    }
}

extension JSONValue {
    /// The value as compact JSON text with sorted keys.
    public var compactJSON: String {
        switch self {
        case .null: return "null"
        case .bool(let value): return value ? "true" : "false"
        case .int(let value): return String(value)
        case .double(let value): return value.isFinite ? String(value) : "null"
        case .string(let value):
            var text = "\""
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
            return text + "\""
        case .array(let values): return "[" + values.map(\.compactJSON).joined(separator: ",") + "]"
        case .object(let members):
            return "{" + members.sorted { $0.key < $1.key }.map { JSONValue.string($0.key).compactJSON + ":" + $0.value.compactJSON }
                .joined(separator: ",") + "}"
        }
    }
}
