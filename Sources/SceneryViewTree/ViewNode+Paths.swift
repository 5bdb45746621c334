/// Where each row of a tree's lists is, so that one row of a long list is found and
/// replaced in place at the cost of one row, not of the tree.
///
/// Only list rows are indexed: they are what a module renders alone (`Module/render(_:)`),
/// and a list is where a walk would cost. Any other node is found by a walk of the tree
/// (``ViewNode/path(to:)``). Each row costs an entry of fixed size, with no storage of its
/// own, so a page that has been updated holds little more than one that has not.
package struct RowIndex: Sendable {
    /// The path of each list in the tree.
    private var lists: [[Int]] = []
    private var rows: [NodeID: Position] = [:]

    private struct Position: Sendable {
        package var list: Int32
        package var section: Int32
        package var row: Int32
    }

    /// Indexes the rows of every list in `root`, nested lists included.
    package init(_ root: ViewNode) {
        var stack: [(ViewNode, [Int])] = [(root, [])]
        while let (node, path) = stack.popLast() {
            if case .list(_, let sections) = node.kind {
                let list = Int32(lists.count)
                lists.append(path)
                for (s, section) in sections.enumerated() {
                    for (r, row) in section.rows.enumerated() {
                        rows[row.id] = Position(list: list, section: Int32(s), row: Int32(r))
                    }
                }
            }
            node.forEachChild { child, steps in stack.append((child, path + steps)) }
        }
    }

    /// The path of a row of one of the lists, as ``ViewNode/node(at:)`` takes it; `nil` for
    /// any other node.
    package func path(of id: NodeID) -> [Int]? {
        guard let position = rows[id] else { return nil }
        return lists[Int(position.list)] + [Int(position.section), Int(position.row)]
    }
}

extension ViewNode {
    /// The path of the node with this id below this one (child indices; a list step takes
    /// two: section, then row), found by a walk of the tree; `nil` when there is none.
    package func path(to id: NodeID) -> [Int]? {
        var stack: [(ViewNode, [Int])] = [(self, [])]
        while let (node, path) = stack.popLast() {
            if node.id == id { return path }
            node.forEachChild { child, steps in stack.append((child, path + steps)) }
        }
        return nil
    }

    /// Calls `body` with each child of this node and the steps from this node to it: one
    /// index, or section and row in a list.
    package func forEachChild(_ body: (ViewNode, [Int]) -> Void) {
        switch kind {
        case .text, .image, .button, .placeholder, .textField: return
        case .stack, .form:
            for (position, child) in children.enumerated() { body(child, [position]) }
        case .list(_, let sections):
            for (s, section) in sections.enumerated() {
                for (r, row) in section.rows.enumerated() { body(row, [s, r]) }
            }
        case .tabs(let tabs): body(tabs.content, [0])
        case .module(let frame): body(frame.content, [0])
        }
    }

    /// The node at a path from `RowIndex/path(of:)` or ``path(to:)``.
    package func node(at path: ArraySlice<Int>) -> ViewNode? {
        guard let first = path.first else { return self }
        switch kind {
        case .stack, .form:
            let children = self.children
            return children.indices.contains(first) ? children[first].node(at: path.dropFirst()) : nil
        case .list(_, let sections):
            guard path.count >= 2, sections.indices.contains(first) else { return nil }
            let row = path[path.startIndex + 1]
            return sections[first].rows.indices.contains(row) ? sections[first].rows[row].node(at: path.dropFirst(2)) : nil
        case .tabs(let tabs): return first == 0 ? tabs.content.node(at: path.dropFirst()) : nil
        case .module(let frame): return first == 0 ? frame.content.node(at: path.dropFirst()) : nil
        default: return nil
        }
    }

    /// Replaces the node at a path, in place: costs the depth of the path, not the size of
    /// the tree, when this tree is not shared (no array on the way is copied).
    /// Returns whether the path existed.
    @discardableResult
    package mutating func replace(at path: ArraySlice<Int>, with node: ViewNode) -> Bool {
        guard let first = path.first else {
            self = node
            return true
        }
        // Take the payload out and vacate every other holder of it (this node's kind, then
        // the taken copy), so that the bound payload is the only owner of the arrays below
        // and they change in place. (A `switch` keeps its subject alive through the case
        // body, which would make each array on the way shared and copied.)
        var taken = kind
        kind = Self.vacated
        var done = false
        if case .stack(let axis, var children) = taken {
            taken = Self.vacated
            if children.indices.contains(first) { done = children[first].replace(at: path.dropFirst(), with: node) }
            kind = .stack(axis: axis, children: children)
        } else if case .form(var form) = taken {
            taken = Self.vacated
            if form.children.indices.contains(first) { done = form.children[first].replace(at: path.dropFirst(), with: node) }
            kind = .form(form)
        } else if case .list(let layout, var sections) = taken {
            taken = Self.vacated
            let row = path.count >= 2 ? path[path.startIndex + 1] : -1
            if sections.indices.contains(first), sections[first].rows.indices.contains(row) {
                done = sections[first].rows[row].replace(at: path.dropFirst(2), with: node)
            }
            kind = .list(layout: layout, sections: sections)
        } else if case .tabs(var tabs) = taken {
            taken = Self.vacated
            if first == 0 { done = tabs.content.replace(at: path.dropFirst(), with: node) }
            kind = .tabs(tabs)
        } else if case .module(var frame) = taken {
            taken = Self.vacated
            if first == 0 { done = frame.content.replace(at: path.dropFirst(), with: node) }
            kind = .module(frame)
        } else {
            kind = taken
        }
        return done
    }

    /// What a node's kind is while its payload is taken out.
    private static let vacated = Kind.stack(axis: .vertical, children: [])
}
