extension ViewNode {
    /// The position of every node below this one, as child indices (a list step takes two:
    /// section, then row). Built once per full render; lets one node be replaced in place.
    func pathIndex() -> [NodeID: [Int]] {
        var index: [NodeID: [Int]] = [id: []]
        var stack: [(ViewNode, [Int])] = [(self, [])]
        while let (node, path) = stack.popLast() {
            switch node.kind {
            case .text, .image, .button, .placeholder, .textField: continue
            case .stack, .form:
                for (position, child) in node.children.enumerated() {
                    index[child.id] = path + [position]
                    stack.append((child, path + [position]))
                }
            case .list(_, let sections):
                for (s, section) in sections.enumerated() {
                    for (r, row) in section.rows.enumerated() {
                        index[row.id] = path + [s, r]
                        stack.append((row, path + [s, r]))
                    }
                }
            case .tabs(let tabs):
                index[tabs.content.id] = path + [0]
                stack.append((tabs.content, path + [0]))
            case .module(let frame):
                index[frame.content.id] = path + [0]
                stack.append((frame.content, path + [0]))
            }
        }
        return index
    }

    /// The node at a path from ``pathIndex()``.
    func node(at path: ArraySlice<Int>) -> ViewNode? {
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
    mutating func replace(at path: ArraySlice<Int>, with node: ViewNode) -> Bool {
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
