extension ViewNode {
    /// A text node.
    public static func text(_ id: NodeID, _ text: String, role: TextRole = .body) -> ViewNode {
        ViewNode(id: id, kind: .text(text, role: role))
    }

    /// An image node.
    public static func image(_ id: NodeID, _ source: ImageSource, alt: String) -> ViewNode {
        ViewNode(id: id, kind: .image(source, alt: alt))
    }

    /// A button that sends `event` when activated.
    public static func button(
        _ id: NodeID, title: String, sends event: EventDescriptor, style: ButtonStyle = .secondary
    ) -> ViewNode {
        ViewNode(id: id, kind: .button(title: title, event: event, style: style))
    }

    /// A stack of children along an axis.
    public static func stack(_ id: NodeID, axis: Axis = .vertical, _ children: [ViewNode]) -> ViewNode {
        ViewNode(id: id, kind: .stack(axis: axis, children: children))
    }

    /// A list of sections.
    public static func list(_ id: NodeID, layout: ListLayout = .rows, sections: [Section]) -> ViewNode {
        ViewNode(id: id, kind: .list(layout: layout, sections: sections))
    }

    /// A field a person types text into.
    ///
    /// ```swift
    /// .textField("title", TextField(name: "title", label: "Title", rules: [.required()]))
    /// ```
    public static func textField(_ id: NodeID, _ field: TextField) -> ViewNode {
        ViewNode(id: id, kind: .textField(field))
    }

    /// A form: `children` (its fields, and any other nodes) and the control that submits
    /// them.
    ///
    /// ```swift
    /// .form("compose", submit: .init(title: "Save draft", sends: "draft.save"), [
    ///     .textField("title", TextField(name: "title", label: "Title")),
    /// ])
    /// ```
    public static func form(_ id: NodeID, submit: Form.Submit, error: String? = nil, _ children: [ViewNode]) -> ViewNode {
        ViewNode(id: id, kind: .form(Form(children: children, submit: submit, error: error)))
    }

    /// A loading placeholder.
    public static func loading(_ id: NodeID, _ message: String = "Loading…") -> ViewNode {
        ViewNode(id: id, kind: .placeholder(Placeholder(kind: .loading, message: message)))
    }

    /// An empty-state placeholder.
    public static func empty(_ id: NodeID, _ message: String) -> ViewNode {
        ViewNode(id: id, kind: .placeholder(Placeholder(kind: .empty, message: message)))
    }

    /// An error placeholder, with the event a retry control sends.
    public static func error(_ id: NodeID, _ message: String, retry: EventDescriptor? = nil) -> ViewNode {
        ViewNode(id: id, kind: .placeholder(Placeholder(kind: .error, message: message, retry: retry)))
    }

    /// The same node, sending `event` when it is selected.
    ///
    /// ```swift
    /// .stack("row.7", [...]).selectable(sending: EventDescriptor("blog.open", payload: ["blog": 7]))
    /// ```
    public func selectable(sending event: EventDescriptor) -> ViewNode {
        var copy = self
        copy.action = event
        return copy
    }
}
