import Foundation

/// The JSON form of a view tree: every node is an object with `id` and `type`, and
/// the fields of its type. See the article "Updates and ordering" of `Scenery`.
extension ViewNode: Codable {
    private enum CodingKeys: String, CodingKey {
        case id, type, text, role, url, symbol, initials, alt, title, event, style, axis, children
        case layout, columns, minCellWidth, sections, header, footer, rows, tabs, selection, content, panels
        case kind, message, retry, module, moduleType, status, action
        case field, form
    }

    private enum NodeType: String, Codable {
        case text, image, button, stack, list, tabs, placeholder, module, textField, form
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        id = try container.decode(NodeID.self, forKey: .id)
        action = try container.decodeIfPresent(EventDescriptor.self, forKey: .action)
        switch try container.decode(NodeType.self, forKey: .type) {
        case .text:
            kind = .text(
                try container.decode(String.self, forKey: .text),
                role: try container.decodeIfPresent(TextRole.self, forKey: .role) ?? .body)
        case .image:
            let source: ImageSource
            if let url = try container.decodeIfPresent(String.self, forKey: .url) {
                // A picture with initials for when it does not load, or a picture alone.
                source = try container.decodeIfPresent(String.self, forKey: .initials).map { .picture(url, initials: $0) } ?? .url(url)
            } else if let initials = try container.decodeIfPresent(String.self, forKey: .initials) {
                source = .initials(initials)
            } else {
                source = .symbol(try container.decode(String.self, forKey: .symbol))
            }
            kind = .image(source, alt: try container.decodeIfPresent(String.self, forKey: .alt) ?? "")
        case .button:
            kind = .button(
                title: try container.decode(String.self, forKey: .title),
                event: try container.decode(EventDescriptor.self, forKey: .event),
                style: try container.decodeIfPresent(ButtonStyle.self, forKey: .style) ?? .secondary)
        case .stack:
            kind = .stack(
                axis: try container.decodeIfPresent(Axis.self, forKey: .axis) ?? .vertical,
                children: try container.decode([ViewNode].self, forKey: .children))
        case .list:
            let layout: ListLayout
            switch try container.decodeIfPresent(String.self, forKey: .layout) {
            case "grid": layout = .grid(columns: try container.decode(Int.self, forKey: .columns))
            case "adaptive-grid": layout = .adaptiveGrid(minimumCellWidth: try container.decode(Int.self, forKey: .minCellWidth))
            case "carousel": layout = .carousel
            default: layout = .rows
            }
            kind = .list(layout: layout, sections: try container.decode([Section].self, forKey: .sections))
        case .tabs:
            kind = .tabs(
                TabSwitch(
                    tabs: try container.decode([TabSwitch.Tab].self, forKey: .tabs),
                    selection: try container.decode(String.self, forKey: .selection),
                    content: try container.decode(ViewNode.self, forKey: .content),
                    unselectedPanels: try container.decodeIfPresent([String: ViewNode].self, forKey: .panels) ?? [:]))
        case .placeholder:
            kind = .placeholder(
                Placeholder(
                    kind: try container.decode(Placeholder.Kind.self, forKey: .kind),
                    message: try container.decode(String.self, forKey: .message),
                    retry: try container.decodeIfPresent(EventDescriptor.self, forKey: .retry)))
        case .module:
            kind = .module(
                ModuleFrame(
                    module: try container.decode(ModuleID.self, forKey: .module),
                    type: try container.decode(String.self, forKey: .moduleType),
                    status: try container.decode(ModuleStatus.self, forKey: .status),
                    content: try container.decode(ViewNode.self, forKey: .content)))
        case .textField:
            kind = .textField(try container.decode(TextField.self, forKey: .field))
        case .form:
            let form = try container.decode(FormFields.self, forKey: .form)
            kind = .form(Form(children: try container.decode([ViewNode].self, forKey: .children), submit: form.submit, error: form.error))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(id, forKey: .id)
        try container.encodeIfPresent(action, forKey: .action)
        switch kind {
        case .text(let text, let role):
            try container.encode(NodeType.text, forKey: .type)
            try container.encode(text, forKey: .text)
            try container.encode(role, forKey: .role)
        case .image(let source, let alt):
            try container.encode(NodeType.image, forKey: .type)
            switch source {
            case .url(let url): try container.encode(url, forKey: .url)
            case .symbol(let symbol): try container.encode(symbol, forKey: .symbol)
            case .initials(let initials): try container.encode(initials, forKey: .initials)
            case .picture(let url, let initials):
                try container.encode(url, forKey: .url)
                try container.encode(initials, forKey: .initials)
            }
            try container.encode(alt, forKey: .alt)
        case .button(let title, let event, let style):
            try container.encode(NodeType.button, forKey: .type)
            try container.encode(title, forKey: .title)
            try container.encode(event, forKey: .event)
            try container.encode(style, forKey: .style)
        case .stack(let axis, let children):
            try container.encode(NodeType.stack, forKey: .type)
            try container.encode(axis, forKey: .axis)
            try container.encode(children, forKey: .children)
        case .list(let layout, let sections):
            try container.encode(NodeType.list, forKey: .type)
            switch layout {
            case .rows: try container.encode("rows", forKey: .layout)
            case .grid(let columns):
                try container.encode("grid", forKey: .layout)
                try container.encode(columns, forKey: .columns)
            case .adaptiveGrid(let width):
                try container.encode("adaptive-grid", forKey: .layout)
                try container.encode(width, forKey: .minCellWidth)
            case .carousel: try container.encode("carousel", forKey: .layout)
            }
            try container.encode(sections, forKey: .sections)
        case .tabs(let tabs):
            try container.encode(NodeType.tabs, forKey: .type)
            try container.encode(tabs.tabs, forKey: .tabs)
            try container.encode(tabs.selection, forKey: .selection)
            try container.encode(tabs.content, forKey: .content)
            if !tabs.unselectedPanels.isEmpty { try container.encode(tabs.unselectedPanels, forKey: .panels) }
        case .placeholder(let placeholder):
            try container.encode(NodeType.placeholder, forKey: .type)
            try container.encode(placeholder.kind, forKey: .kind)
            try container.encode(placeholder.message, forKey: .message)
            try container.encodeIfPresent(placeholder.retry, forKey: .retry)
        case .module(let frame):
            try container.encode(NodeType.module, forKey: .type)
            try container.encode(frame.module, forKey: .module)
            try container.encode(frame.type, forKey: .moduleType)
            try container.encode(frame.status, forKey: .status)
            try container.encode(frame.content, forKey: .content)
        case .textField(let field):
            try container.encode(NodeType.textField, forKey: .type)
            try container.encode(field, forKey: .field)
        case .form(let form):
            try container.encode(NodeType.form, forKey: .type)
            try container.encode(FormFields(submit: form.submit, error: form.error), forKey: .form)
            try container.encode(form.children, forKey: .children)
        }
    }

    /// A form's own fields in JSON: `{"submit": {"title", "event"}, "error"}`.
    private struct FormFields: Codable {
        package var submit: Form.Submit
        package var error: String?
    }
}
