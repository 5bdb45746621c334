import Foundation

/// The JSON form of patches, one object per patch with an `op`:
/// `delete` (`id`), `insert` (`parent`, `index`, and `node` or `section`), `move` (`id`,
/// `parent`, `index`) and `update` (`id`, `properties`: the element's own fields in the
/// view-tree format, without children).
extension ViewPatch: Codable {
    private enum CodingKeys: String, CodingKey { case op, id, parent, index, node, section, properties }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        switch try container.decode(String.self, forKey: .op) {
        case "delete":
            self = .delete(try container.decode(NodeID.self, forKey: .id))
        case "insert":
            let element: ViewElement =
                if let section = try container.decodeIfPresent(ViewNode.Section.self, forKey: .section) {
                    .section(section)
                } else {
                    .node(try container.decode(ViewNode.self, forKey: .node))
                }
            self = .insert(
                element, parent: try container.decodeIfPresent(NodeID.self, forKey: .parent), index: try container.decode(Int.self, forKey: .index))
        case "move":
            self = .move(
                try container.decode(NodeID.self, forKey: .id), parent: try container.decode(NodeID.self, forKey: .parent),
                index: try container.decode(Int.self, forKey: .index))
        case "update":
            self = .update(try container.decode(NodeID.self, forKey: .id), try container.decode(ElementProperties.self, forKey: .properties))
        case let op:
            throw DecodingError.dataCorruptedError(forKey: .op, in: container, debugDescription: "Unknown patch op '\(op)'.")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch self {
        case .delete(let id):
            try container.encode("delete", forKey: .op)
            try container.encode(id, forKey: .id)
        case .insert(let element, let parent, let index):
            try container.encode("insert", forKey: .op)
            try container.encodeIfPresent(parent, forKey: .parent)
            try container.encode(index, forKey: .index)
            switch element {
            case .node(let node): try container.encode(node, forKey: .node)
            case .section(let section): try container.encode(section, forKey: .section)
            }
        case .move(let id, let parent, let index):
            try container.encode("move", forKey: .op)
            try container.encode(id, forKey: .id)
            try container.encode(parent, forKey: .parent)
            try container.encode(index, forKey: .index)
        case .update(let id, let properties):
            try container.encode("update", forKey: .op)
            try container.encode(id, forKey: .id)
            try container.encode(properties, forKey: .properties)
        }
    }
}

/// Own properties encode as a childless node of the view-tree format (`type` and its
/// fields), or for a section `type: "section"` with `header`, `footer`, `firstRowIndex`,
/// `totalRowCount`.
extension ElementProperties: Codable {
    private enum SectionKeys: String, CodingKey { case type, header, footer, firstRowIndex, totalRowCount }

    public init(from decoder: any Decoder) throws {
        let sectionContainer = try decoder.container(keyedBy: SectionKeys.self)
        if try sectionContainer.decode(String.self, forKey: .type) == "section" {
            self.init(
                kind: .section(
                    header: try sectionContainer.decodeIfPresent(String.self, forKey: .header),
                    footer: try sectionContainer.decodeIfPresent(String.self, forKey: .footer),
                    firstRowIndex: try sectionContainer.decodeIfPresent(Int.self, forKey: .firstRowIndex),
                    totalRowCount: try sectionContainer.decodeIfPresent(Int.self, forKey: .totalRowCount)))
            return
        }
        // Decode as a node with empty children, then keep only its own properties.
        let node = try ShallowNode(from: decoder).node
        self = ViewElement.node(node).properties
    }

    public func encode(to encoder: any Encoder) throws {
        if case .section(let header, let footer, let first, let total) = kind {
            var container = encoder.container(keyedBy: SectionKeys.self)
            try container.encode("section", forKey: .type)
            try container.encodeIfPresent(header, forKey: .header)
            try container.encodeIfPresent(footer, forKey: .footer)
            try container.encodeIfPresent(first, forKey: .firstRowIndex)
            try container.encodeIfPresent(total, forKey: .totalRowCount)
            return
        }
        try ShallowNode(self).encode(to: encoder)
    }
}

/// A node without children, for encoding own properties in the view-tree format.
private struct ShallowNode: Codable {
    package var node: ViewNode

    package init(_ properties: ElementProperties) {
        let empty = ViewNode.stack("", [])
        let kind: ViewNode.Kind
        switch properties.kind {
        case .text(let text, let role): kind = .text(text, role: role)
        case .image(let source, let alt): kind = .image(source, alt: alt)
        case .button(let title, let event, let style): kind = .button(title: title, event: event, style: style)
        case .placeholder(let placeholder): kind = .placeholder(placeholder)
        case .stack(let axis): kind = .stack(axis: axis, children: [])
        case .textField(let field): kind = .textField(field)
        case .form(let submit, let error): kind = .form(Form(children: [], submit: submit, error: error))
        case .list(let layout): kind = .list(layout: layout, sections: [])
        case .tabs(let tabs, let selection): kind = .tabs(ViewNode.TabSwitch(tabs: tabs, selection: selection, content: empty))
        case .module(let module, let type, let status): kind = .module(ViewNode.ModuleFrame(module: module, type: type, status: status, content: empty))
        case .section: kind = .stack(axis: .vertical, children: [])
        }
        node = ViewNode(id: "", kind: kind, action: properties.action)
    }

    package init(from decoder: any Decoder) throws {
        // Fill in what a shallow node leaves out, so the node decoder accepts it.
        var object = try JSONValue(from: decoder)
        if case .object(var fields) = object {
            fields["id"] = fields["id"] ?? ""
            switch fields["type"]?.stringValue {
            case "stack", "form": fields["children"] = fields["children"] ?? []
            case "list": fields["sections"] = fields["sections"] ?? []
            case "tabs", "module": fields["content"] = fields["content"] ?? ["id": "", "type": "stack", "children": []]
            default: break
            }
            object = .object(fields)
        }
        node = try JSONDecoder().decode(ViewNode.self, from: JSONEncoder().encode(object))
    }

    package func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: ShallowKeys.self)
        // Encode the node, then drop the id and the children.
        let full = try JSONValueEncoder().encode(node)
        guard case .object(var fields) = full else { return }
        for key in ["id", "children", "sections", "content"] { fields[key] = nil }
        for (key, value) in fields { try container.encode(value, forKey: ShallowKeys(key)) }
    }

    package struct ShallowKeys: CodingKey {
        package var stringValue: String
        package var intValue: Int? { nil }
        package init(_ string: String) { stringValue = string }
        package init?(stringValue: String) { self.stringValue = stringValue }
        package init?(intValue: Int) { nil }
    }
}
