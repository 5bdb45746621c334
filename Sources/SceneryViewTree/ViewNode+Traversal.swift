extension ViewNode {
    /// The node's direct children, in order (section rows included).
    public var children: [ViewNode] {
        switch kind {
        case .text, .image, .button, .placeholder, .textField: []
        case .stack(_, let children): children
        case .form(let form): form.children
        case .list(_, let sections): sections.flatMap(\.rows)
        case .tabs(let tabs): [tabs.content]
        case .module(let frame): [frame.content]
        }
    }

    /// Whether the node holds other nodes (a stack, list, tab switch or module frame), even
    /// when it holds none right now.
    package var isContainer: Bool {
        switch kind {
        case .text, .image, .button, .placeholder, .textField: false
        case .stack, .list, .tabs, .module, .form: true
        }
    }

    /// This node and all its descendants, depth first, in display order.
    public var allNodes: [ViewNode] {
        var result: [ViewNode] = []
        var stack: [ViewNode] = [self]
        while let node = stack.popLast() {
            result.append(node)
            stack.append(contentsOf: node.children.reversed())
        }
        return result
    }

    /// The text fields of this node and its descendants, with their ids, in display order:
    /// what a host holds typed text for, and a form's fields.
    public var textFields: [(id: NodeID, field: TextField)] {
        allNodes.compactMap { node in
            if case .textField(let field) = node.kind { (node.id, field) } else { nil }
        }
    }

    /// The first node, depth first, with the given id.
    public func node(withID id: NodeID) -> ViewNode? {
        allNodes.first { $0.id == id }
    }

    /// The frame of the module with the given id, if the tree shows it.
    public func moduleFrame(_ module: ModuleID) -> ModuleFrame? {
        for node in allNodes {
            if case .module(let frame) = node.kind, frame.module == module { return frame }
        }
        return nil
    }

    /// Every text the tree shows to a person: texts, button and tab titles, headers,
    /// footers, placeholder messages and image alt texts, in display order.
    public var visibleTexts: [String] {
        var texts: [String] = []
        for node in allNodes {
            switch node.kind {
            case .text(let text, _): texts.append(text)
            case .image(_, let alt): texts.append(alt)
            case .button(let title, _, _): texts.append(title)
            case .list(_, let sections):
                for section in sections {
                    if let header = section.header { texts.append(header) }
                    if let footer = section.footer { texts.append(footer) }
                }
            case .tabs(let tabs): texts.append(contentsOf: tabs.tabs.map(\.title))
            case .placeholder(let placeholder): texts.append(placeholder.message)
            case .textField(let field):
                texts.append(field.label)
                if let error = field.error { texts.append(error) }
            case .form(let form):
                texts.append(form.submit.title)
                if let error = form.error { texts.append(error) }
            case .stack, .module: break
            }
        }
        return texts
    }

    /// The same tree with every id (and section id) prefixed by a module's id.
    ///
    /// A scene qualifies each module's subtree, so ids are unique across modules and an
    /// event's source names the module it belongs to.
    public func qualified(by module: ModuleID) -> ViewNode {
        var copy = self
        copy.id = id.qualified(by: module)
        switch kind {
        case .text, .image, .button, .textField: break
        case .placeholder: break
        case .stack(let axis, let children):
            copy.kind = .stack(axis: axis, children: children.map { $0.qualified(by: module) })
        case .form(var form):
            form.children = form.children.map { $0.qualified(by: module) }
            copy.kind = .form(form)
        case .list(let layout, let sections):
            copy.kind = .list(
                layout: layout,
                sections: sections.map { section in
                    var section = section
                    section.id = section.id.qualified(by: module)
                    section.rows = section.rows.map { $0.qualified(by: module) }
                    return section
                })
        case .tabs(var tabs):
            tabs.content = tabs.content.qualified(by: module)
            copy.kind = .tabs(tabs)
        case .module(var frame):
            frame.content = frame.content.qualified(by: module)
            copy.kind = .module(frame)
        }
        return copy
    }
}

extension ViewNode {
    /// The node with its outermost lists laid out another way (a scene's `"display"` for a
    /// module), or unchanged for `nil`. Lists inside a list's rows keep their own layout: a
    /// carousel inside a row stays a carousel in a grid.
    package func laidOut(_ layout: ListLayout?) -> ViewNode {
        guard let layout else { return self }
        var node = self
        switch kind {
        case .list(_, let sections): node.kind = .list(layout: layout, sections: sections)
        case .stack(let axis, let children): node.kind = .stack(axis: axis, children: children.map { $0.laidOut(layout) })
        case .form(var form):
            form.children = form.children.map { $0.laidOut(layout) }
            node.kind = .form(form)
        case .tabs(var tabs):
            tabs.content = tabs.content.laidOut(layout)
            node.kind = .tabs(tabs)
        case .module(var frame):
            frame.content = frame.content.laidOut(layout)
            node.kind = .module(frame)
        case .text, .image, .button, .placeholder, .textField: break
        }
        return node
    }
}
