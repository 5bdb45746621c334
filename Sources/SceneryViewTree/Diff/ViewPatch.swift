/// One change to a view tree, addressed by id. A list of patches turns an old tree into a
/// new one; `ViewTreeDiff` computes them and `PatchableTree` applies them.
///
/// Patches address *elements*: nodes and list sections, which share one id space.
/// Apply a list in four phases (`PatchableTree` does this):
/// 1. detach every element named by a `move` (it keeps its subtree);
/// 2. remove every element named by a `delete`, with its subtree;
/// 3. attach `insert`s and `move`s in list order — within one parent they come in
///    ascending index, so each index is final;
/// 4. apply `update`s: an element's own properties, never its children.
///
/// JSON (see the article "Updates and ordering" of `Scenery`):
/// ```json
/// {"op":"delete","id":"blogs/blog.3"}
/// {"op":"insert","parent":"blogs/all","index":0,"node":{…}}
/// {"op":"move","id":"blogs/blog.9","parent":"blogs/all","index":4}
/// {"op":"update","id":"blogs/blog.7.likes","properties":{"type":"text","text":"Likes: 13","role":"caption"}}
/// ```
public enum ViewPatch: Sendable, Hashable {
    /// Remove the element and its subtree.
    case delete(NodeID)
    /// Insert an element with its subtree into a parent's children at an index
    /// (`parent` `nil`: the element becomes the root).
    case insert(ViewElement, parent: NodeID?, index: Int)
    /// Move an existing element (with its subtree) to a parent's children at an index.
    case move(NodeID, parent: NodeID, index: Int)
    /// Replace an element's own properties (text, title, status, header…), keeping its children.
    case update(NodeID, ElementProperties)
}

/// An element of a view tree that patches address: a node or a list section.
public enum ViewElement: Sendable, Hashable {
    case node(ViewNode)
    case section(ViewNode.Section)

    /// The element's id.
    public var id: NodeID {
        switch self {
        case .node(let node): node.id
        case .section(let section): section.id
        }
    }
}

/// An element's own properties: everything but its children.
public struct ElementProperties: Sendable, Hashable {
    /// The properties of each kind of element.
    public enum Kind: Sendable, Hashable {
        case text(String, role: ViewNode.TextRole)
        case image(ViewNode.ImageSource, alt: String)
        case button(title: String, event: EventDescriptor, style: ViewNode.ButtonStyle)
        case placeholder(ViewNode.Placeholder)
        case stack(axis: ViewNode.Axis)
        case list(layout: ViewNode.ListLayout)
        case tabs(tabs: [ViewNode.TabSwitch.Tab], selection: String)
        case module(ModuleID, type: String, status: ModuleStatus)
        case textField(TextField)
        case form(submit: Form.Submit, error: String?)
        case section(header: String?, footer: String?, firstRowIndex: Int?, totalRowCount: Int?)
    }

    public var kind: Kind
    /// The event the element sends when selected (nodes only).
    public var action: EventDescriptor?

    public init(kind: Kind, action: EventDescriptor? = nil) {
        self.kind = kind
        self.action = action
    }

    /// Whether two elements are of the same kind (so one can be updated into the other).
    package func hasSameShape(as other: ElementProperties) -> Bool {
        switch (kind, other.kind) {
        case (.text, .text), (.image, .image), (.button, .button), (.placeholder, .placeholder), (.stack, .stack),
            (.list, .list), (.tabs, .tabs), (.module, .module), (.section, .section), (.textField, .textField), (.form, .form):
            true
        default:
            false
        }
    }
}

extension ViewElement {
    /// The element's own properties.
    public var properties: ElementProperties {
        switch self {
        case .section(let section):
            return ElementProperties(
                kind: .section(header: section.header, footer: section.footer, firstRowIndex: section.firstRowIndex, totalRowCount: section.totalRowCount))
        case .node(let node):
            let kind: ElementProperties.Kind
            switch node.kind {
            case .text(let text, let role): kind = .text(text, role: role)
            case .image(let source, let alt): kind = .image(source, alt: alt)
            case .button(let title, let event, let style): kind = .button(title: title, event: event, style: style)
            case .placeholder(let placeholder): kind = .placeholder(placeholder)
            case .stack(let axis, _): kind = .stack(axis: axis)
            case .list(let layout, _): kind = .list(layout: layout)
            case .tabs(let tabs): kind = .tabs(tabs: tabs.tabs, selection: tabs.selection)
            case .module(let frame): kind = .module(frame.module, type: frame.type, status: frame.status)
            case .textField(let field): kind = .textField(field)
            case .form(let form): kind = .form(submit: form.submit, error: form.error)
            }
            return ElementProperties(kind: kind, action: node.action)
        }
    }

    /// The element's children: a stack's children, a list's sections, a section's rows,
    /// the content of tabs and module frames.
    public var children: [ViewElement] {
        switch self {
        case .section(let section): return section.rows.map(ViewElement.node)
        case .node(let node):
            switch node.kind {
            case .text, .image, .button, .placeholder, .textField: return []
            case .stack(_, let children): return children.map(ViewElement.node)
            case .form(let form): return form.children.map(ViewElement.node)
            case .list(_, let sections): return sections.map(ViewElement.section)
            case .tabs(let tabs): return [.node(tabs.content)]
            case .module(let frame): return [.node(frame.content)]
            }
        }
    }
}
