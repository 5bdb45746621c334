/// A view tree a host keeps and applies patches to.
///
/// ```swift
/// let tree = PatchableTree(await scene.render())
/// // later, in SceneHost.sceneDidUpdate(_:)
/// try tree.apply(update.patches)
/// draw(tree.root)
/// ```
///
/// Not thread-safe: use it from one place, such as the host's main actor.
package final class PatchableTree {
    package final class Element {
        package let id: NodeID
        package fileprivate(set) var properties: ElementProperties
        package fileprivate(set) var children: [Element]
        package fileprivate(set) weak var parent: Element?

        package init(_ element: ViewElement) {
            id = element.id
            properties = element.properties
            children = element.children.map(Element.init)
            for child in children { child.parent = self }
        }
    }

    private var rootElement: Element
    private var index: [NodeID: Element] = [:]

    /// Keeps a tree.
    package init(_ root: ViewNode) {
        rootElement = Element(.node(root))
        reindex()
    }

    private func reindex() {
        index.removeAll(keepingCapacity: true)
        var stack = [rootElement]
        while let element = stack.popLast() {
            index[element.id] = element
            stack.append(contentsOf: element.children)
        }
    }

    /// The tree as it is now.
    package var root: ViewNode {
        guard case .node(let node) = Self.value(of: rootElement) else { return .stack("root", []) }
        return node
    }

    /// A patch could not be applied: the tree is not the one the patches were made for.
    package struct PatchError: Error, Sendable, CustomStringConvertible {
        package var description: String
    }

    /// Applies patches in the four phases ``ViewPatch`` describes.
    /// - Throws: `PatchError` naming the id a patch needs but the tree lacks; the tree
    ///   may then be partly patched — render it again from the scene.
    package func apply(_ patches: [ViewPatch]) throws(PatchError) {
        func find(_ id: NodeID) throws(PatchError) -> Element {
            guard let element = index[id] else { throw PatchError(description: "No element '\(id)' in the tree; render the scene again.") }
            return element
        }
        func detach(_ element: Element) {
            guard let parent = element.parent else { return }
            parent.children.removeAll { $0 === element }
            element.parent = nil
        }
        func forget(_ element: Element) {
            var stack = [element]
            while let next = stack.popLast() {
                if index[next.id] === next { index[next.id] = nil }
                stack.append(contentsOf: next.children)
            }
        }
        // 1. Detach moved elements.
        var detached: [NodeID: Element] = [:]
        for case .move(let id, _, _) in patches {
            let element = try find(id)
            detach(element)
            detached[id] = element
        }
        // 2. Delete.
        for case .delete(let id) in patches {
            let element = try find(id)
            if element === rootElement {
                forget(element)
                continue
            }
            detach(element)
            forget(element)
        }
        // 3. Attach in order.
        for patch in patches {
            switch patch {
            case .insert(let value, let parentID, let position):
                let element = Element(value)
                if let parentID {
                    let parent = try find(parentID)
                    guard position >= 0, position <= parent.children.count else {
                        throw PatchError(description: "Index \(position) is out of range in '\(parentID)'.")
                    }
                    parent.children.insert(element, at: position)
                    element.parent = parent
                    var stack = [element]
                    while let next = stack.popLast() {
                        index[next.id] = next
                        stack.append(contentsOf: next.children)
                    }
                } else {
                    rootElement = element
                    reindex()
                }
            case .move(let id, let parentID, let position):
                guard let element = detached[id] else { throw PatchError(description: "No element '\(id)' to move.") }
                let parent = try find(parentID)
                guard position >= 0, position <= parent.children.count else {
                    throw PatchError(description: "Index \(position) is out of range in '\(parentID)'.")
                }
                parent.children.insert(element, at: position)
                element.parent = parent
            default:
                continue
            }
        }
        // 4. Update.
        for case .update(let id, let properties) in patches {
            try find(id).properties = properties
        }
    }

    /// Rebuilds a value from an element.
    package static func value(of element: Element) -> ViewElement {
        let children = element.children.map(value(of:))
        func nodes() -> [ViewNode] {
            children.compactMap { if case .node(let node) = $0 { node } else { nil } }
        }
        func content() -> ViewNode { nodes().first ?? .stack("\(element.id.rawValue)#empty", []) }
        let kind: ViewNode.Kind
        switch element.properties.kind {
        case .section(let header, let footer, let firstRowIndex, let totalRowCount):
            var section = ViewNode.Section(id: element.id, header: header, footer: footer, rows: nodes())
            section.firstRowIndex = firstRowIndex
            section.totalRowCount = totalRowCount
            return .section(section)
        case .text(let text, let role): kind = .text(text, role: role)
        case .image(let source, let alt): kind = .image(source, alt: alt)
        case .button(let title, let event, let style): kind = .button(title: title, event: event, style: style)
        case .placeholder(let placeholder): kind = .placeholder(placeholder)
        case .stack(let axis): kind = .stack(axis: axis, children: nodes())
        case .textField(let field): kind = .textField(field)
        case .form(let submit, let error): kind = .form(Form(children: nodes(), submit: submit, error: error))
        case .list(let layout):
            kind = .list(layout: layout, sections: children.compactMap { if case .section(let section) = $0 { section } else { nil } })
        case .tabs(let tabs, let selection): kind = .tabs(ViewNode.TabSwitch(tabs: tabs, selection: selection, content: content()))
        case .module(let module, let type, let status):
            kind = .module(ViewNode.ModuleFrame(module: module, type: type, status: status, content: content()))
        }
        return .node(ViewNode(id: element.id, kind: kind, action: element.properties.action))
    }
}

extension PatchableTree {
    /// The element with an id and its subtree, rebuilt from the tree (costs the subtree,
    /// not the whole tree), or `nil` if there is none.
    package func element(_ id: NodeID) -> ViewElement? {
        index[id].map(Self.value(of:))
    }

    /// The own properties of the element with an id.
    package func properties(of id: NodeID) -> ElementProperties? {
        index[id]?.properties
    }

    /// Whether the tree has an element with the id.
    package func contains(_ id: NodeID) -> Bool {
        index[id] != nil
    }

    /// The id of the element's parent, or `nil` for the root or an unknown id.
    package func parent(of id: NodeID) -> NodeID? {
        index[id]?.parent?.id
    }

    /// Whether the element with id `id` lies inside the element `ancestor` (not counting
    /// itself).
    package func isInside(_ id: NodeID, _ ancestor: NodeID) -> Bool {
        var current = index[id]?.parent
        while let element = current {
            if element.id == ancestor { return true }
            current = element.parent
        }
        return false
    }

    /// The control with an action id (as ``ViewNode/actions`` names them: a button's or
    /// selectable node's id, a placeholder's id for its retry, `switch#tab` for a tab), or
    /// `nil` if the tree has none. Costs a lookup, not a walk of the tree.
    package func action(withID id: NodeID) -> ViewAction? {
        if let element = index[id] {
            if let action = element.properties.action {
                let title: String = if case .text(let text, _) = element.properties.kind { text } else { id.rawValue }
                return ViewAction(id: id, title: title, event: Event(action, from: id))
            }
            switch element.properties.kind {
            case .button(let title, let event, _): return ViewAction(id: id, title: title, event: Event(event, from: id))
            case .placeholder(let placeholder):
                return placeholder.retry.map { ViewAction(id: id, title: "Retry", event: Event($0, from: id)) }
            case .form(let submit, _):
                // The fields sit below: the form's subtree is rebuilt (it costs the form).
                guard case .node(let node) = Self.value(of: element), case .form(let form) = node.kind else { return nil }
                return ViewAction(id: id, title: submit.title, event: form.submissionAsShown(from: id))
            case .textField(let field):
                return (try? field.change(to: field.value, from: id)).flatMap { $0 }.map { ViewAction(id: id, title: field.label, event: $0) }
            default: return nil
            }
        }
        // A tab: "switch#tab".
        guard let control = id.tabControl, case .tabs(let tabs, _)? = index[control.tabSwitch]?.properties.kind,
            let tab = tabs.first(where: { $0.id == control.tab })
        else { return nil }
        return ViewAction(id: id, title: tab.title, event: Event(tab.event, from: id))
    }
}
