/// The patches that turn one view tree into another, computed in time linear in the
/// number of elements (plus n log n for minimal moves in each list).
///
/// ```swift
/// let diff = ViewTreeDiff(from: oldTree, to: newTree)
/// host.apply(diff.patches)        // one update for a changed like count
/// ```
///
/// Elements are matched by id anywhere in the tree, so a row that moves to another section
/// is a `move`, not a delete and an insert. An element whose kind changed is deleted and
/// inserted. Ids must be unique; where an id repeats, the diff cannot address those
/// elements, so it replaces the nearest container with a unique id whole, deterministically,
/// and reports the id in ``diagnostics``.
package struct ViewTreeDiff: Sendable {
    /// The patches, in application order (see ``ViewPatch``).
    package private(set) var patches: [ViewPatch] = []
    /// Problems found, such as duplicate ids.
    package private(set) var diagnostics: [String] = []

    /// Computes the patches from `old` to `new`.
    package init(from old: ViewNode, to new: ViewNode) {
        if let updates = Self.updatesOfSameShape(.node(old), .node(new)) {
            self.init(patches: updates)
        } else {
            self.init(matchingByIDFrom: old, to: new)
        }
    }

    private init(patches: [ViewPatch]) {
        self.patches = patches
    }

    /// The most elements the same-shape walk visits before it leaves the tree to matching
    /// by id: a long list whose rows moved costs it at most this many visits in vain.
    package static let sameShapeBudget = 512

    /// The patches when only properties changed — every element keeps its id, kind and
    /// place, and no id repeats, as when a row is rendered again after a like — found by
    /// one walk of both trees in step, without flattening them; `nil` otherwise (or past
    /// ``sameShapeBudget`` elements). They are the patches matching by id finds: the
    /// updates, in pre-order.
    package static func updatesOfSameShape(_ old: ViewElement, _ new: ViewElement) -> [ViewPatch]? {
        var updates: [ViewPatch] = []
        // The ids met so far, to leave a tree with a repeated id to matching by id: in an
        // array while there are few (a row's eight elements), compared rather than hashed.
        var few: [NodeID] = []
        var many = Set<NodeID>()
        func isFirst(_ id: NodeID) -> Bool {
            if few.count < 16 {
                guard !few.contains(id) else { return false }
                few.append(id)
                return true
            }
            if many.isEmpty { many = Set(few) }
            return many.insert(id).inserted
        }
        var stack = [(old, new)]
        var count = 0
        while let (before, after) = stack.popLast() {
            count += 1
            guard count <= sameShapeBudget, before.id == after.id, isFirst(after.id) else { return nil }
            let (was, now) = (before.properties, after.properties)
            guard was.hasSameShape(as: now) else { return nil }
            if was != now { updates.append(.update(after.id, now)) }
            let (oldChildren, newChildren) = (before.children, after.children)
            guard oldChildren.count == newChildren.count else { return nil }
            // The first pair last, to be visited first (indices reversed: no array of pairs).
            for index in oldChildren.indices.reversed() { stack.append((oldChildren[index], newChildren[index])) }
        }
        return updates
    }

    /// Computes the patches from `old` to `new` by matching elements by id anywhere in the
    /// trees (what ``init(from:to:)`` does when more than properties changed).
    package init(matchingByIDFrom old: ViewNode, to new: ViewNode) {
        let oldTree = FlatTree(.node(old))
        let newTree = FlatTree(.node(new))
        let duplicates = oldTree.duplicates.union(newTree.duplicates)
        for id in duplicates.sorted() {
            diagnostics.append("The id '\(id)' is used more than once; ids must be unique in a tree. Its container is replaced whole.")
        }
        // Elements that cannot be matched: duplicates, and containers holding duplicates.
        let unmatchable = Self.unmatchable(duplicates, oldTree, newTree)

        // match[j]: the old element matched with new element j, if any. An element inside an
        // inserted subtree travels with it, so it is matched only if its parent is.
        var match = [Int](repeating: -1, count: newTree.count)
        var oldMatched = [Bool](repeating: false, count: oldTree.count)
        for j in 0..<newTree.count {
            let id = newTree.ids[j]
            guard !unmatchable.contains(id), let i = oldTree.index[id], !unmatchable.contains(oldTree.ids[i]),
                oldTree.properties[i].hasSameShape(as: newTree.properties[j])
            else { continue }
            let parent = newTree.parents[j]
            if parent < 0 ? oldTree.parents[i] < 0 : match[parent] >= 0 {
                match[j] = i
                oldMatched[i] = true
            }
        }
        guard match[0] == 0 else {
            // The roots differ: replace the whole tree.
            patches = [.delete(oldTree.ids[0]), .insert(newTree.elements[0], parent: nil, index: 0)]
            return
        }

        var deletions: [ViewPatch] = []
        var attachments: [ViewPatch] = []
        var updates: [ViewPatch] = []
        // Delete the top-most old elements that have no match.
        for i in 1..<max(oldTree.count, 1) where !oldMatched[i] && oldMatched[oldTree.parents[i]] {
            deletions.append(.delete(oldTree.ids[i]))
        }
        for j in 0..<newTree.count where match[j] >= 0 {
            let i = match[j]
            if oldTree.properties[i] != newTree.properties[j] { updates.append(.update(newTree.ids[j], newTree.properties[j])) }
            // Diff the children of this matched pair.
            let newChildren = newTree.children[j]
            let oldChildren = oldTree.children[i]
            var oldPosition: [Int: Int] = [:]  // old element -> index among old children
            if !newChildren.isEmpty {
                oldPosition.reserveCapacity(oldChildren.count)
                for (position, child) in oldChildren.enumerated() { oldPosition[child] = position }
            }
            var common: [Int] = []  // old child positions, in new order
            var commonNew: [Int] = []  // (new index among children)
            for (index, child) in newChildren.enumerated() {
                let matched = match[child]
                if matched < 0 {
                    attachments.append(.insert(newTree.elements[child], parent: newTree.ids[j], index: index))
                } else if let position = oldPosition[matched] {
                    common.append(position)
                    commonNew.append(index)
                } else {
                    attachments.append(.move(newTree.ids[child], parent: newTree.ids[j], index: index))
                }
            }
            let staying = ListDiff<Int>.longestIncreasingSubsequence(common)
            for (k, stays) in staying.enumerated() where !stays {
                attachments.append(.move(newTree.ids[newChildren[commonNew[k]]], parent: newTree.ids[j], index: commonNew[k]))
            }
            // Keep each parent's attachments in ascending index.
            Self.sortTail(&attachments, parent: newTree.ids[j])
        }
        patches = deletions + attachments + updates
    }

    /// Duplicated ids and, going up, every container that holds one (or holds such a container).
    private static func unmatchable(_ duplicates: Set<NodeID>, _ trees: FlatTree...) -> Set<NodeID> {
        guard !duplicates.isEmpty else { return [] }
        var result = duplicates
        for tree in trees {
            for index in 0..<tree.count where duplicates.contains(tree.ids[index]) {
                // Up to and including the first ancestor with a unique id.
                var parent = tree.parents[index]
                while parent >= 0 {
                    result.insert(tree.ids[parent])
                    if !duplicates.contains(tree.ids[parent]) { break }
                    parent = tree.parents[parent]
                }
            }
        }
        return result
    }

    /// Sorts the attachments appended for one parent by index (they were appended as inserts
    /// in order, then moves in order).
    private static func sortTail(_ attachments: inout [ViewPatch], parent: NodeID) {
        var start = attachments.count
        while start > 0, attachments[start - 1].attachment?.parent == parent { start -= 1 }
        guard attachments.count - start > 1 else { return }
        attachments[start...].sort { ($0.attachment?.index ?? 0) < ($1.attachment?.index ?? 0) }
    }
}

extension ViewPatch {
    /// The parent and index of an insert or a move.
    package var attachment: (parent: NodeID, index: Int)? {
        switch self {
        case .insert(_, let parent?, let index): (parent, index)
        case .move(_, let parent, let index): (parent, index)
        default: nil
        }
    }
}

/// A tree flattened into arrays, in pre-order, for diffing.
package struct FlatTree {
    package var ids: [NodeID] = []
    package var elements: [ViewElement] = []
    package var properties: [ElementProperties] = []
    package var parents: [Int] = []
    package var children: [[Int]] = []
    package var index: [NodeID: Int] = [:]
    package var duplicates: Set<NodeID> = []
    package var count: Int { ids.count }

    package init(_ root: ViewElement) {
        var stack: [(ViewElement, Int)] = [(root, -1)]
        while let (element, parent) = stack.popLast() {
            let position = ids.count
            ids.append(element.id)
            elements.append(element)
            properties.append(element.properties)
            parents.append(parent)
            children.append([])
            if parent >= 0 { children[parent].append(position) }
            if index.updateValue(position, forKey: element.id) != nil { duplicates.insert(element.id) }
            for child in element.children.reversed() { stack.append((child, position)) }
        }
    }
}
