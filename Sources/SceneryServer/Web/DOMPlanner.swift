import Scenery
import SceneryPageProtocol

/// Turns a scene update into operations on the page's DOM, with HTML from the server's
/// renderer (the one renderer of record): the browser only applies them, by element id.
///
/// The page keeps no copy of the tree: the planner works from each update alone — the
/// subtree as the page has it (``SceneUpdate/previous``, which is the scene's model of the
/// page, so they agree) with the update's patches applied to a copy of that subtree only —
/// and emits operations in four phases, as ``ViewPatch`` applies:
/// detach moved elements, remove deleted ones, insert and attach in order, then replace
/// elements whose own properties changed with their new HTML. A replaced element brings
/// its subtree, so operations inside it are left out (a move into it becomes a removal); an
/// element that both moves and changes is moved, then replaced where it now is.
struct DOMPlanner {
    /// One operation the page script applies: the page protocol's.
    typealias Operation = PageProtocol.DOMOperation

    let renderer: HTMLRenderer

    /// Patches do not fit the page's copy: the page must be given the whole tree again.
    struct Mismatch: Error, CustomStringConvertible {
        var description: String
    }

    /// The operations that take the browser's DOM through one update of the scene.
    /// - Throws: ``Mismatch`` when the update has no previous subtree or its patches do not
    ///   apply to it (the page must then be given the whole tree again).
    func operations(for update: SceneUpdate) throws(Mismatch) -> [Operation] {
        if let replacements = Self.replacements(for: update, renderer: renderer) { return replacements }
        guard let previous = update.previous else { throw Mismatch(description: "The update carries no previous subtree.") }
        return try operations(for: update.patches, in: PatchableTree(previous))
    }

    /// The common case without building a tree: an update whose patches only change nodes'
    /// own properties (a like's count and button) replaces the outermost of those nodes with
    /// their new HTML, found in one walk of the update's new subtree. `nil` for any other
    /// update (a structural change, a section's change), which takes the general path.
    private static func replacements(for update: SceneUpdate, renderer: HTMLRenderer) -> [Operation]? {
        var updated: Set<NodeID> = []
        for patch in update.patches {
            guard case .update(let id, let properties) = patch else { return nil }
            if case .section = properties.kind { return nil }
            updated.insert(id)
        }
        var outermost: [NodeID: ViewNode] = [:]
        var found: Set<NodeID> = []
        func visit(_ node: ViewNode, insideUpdated: Bool) {
            let isUpdated = updated.contains(node.id)
            if isUpdated {
                found.insert(node.id)
                if !insideUpdated { outermost[node.id] = node }
            }
            for child in node.children { visit(child, insideUpdated: insideUpdated || isUpdated) }
        }
        visit(update.node, insideUpdated: false)
        // A patch for a node the new subtree lacks: let the general path say so.
        guard found == updated else { return nil }
        var operations: [Operation] = []
        var seen: Set<NodeID> = []
        for case .update(let id, _) in update.patches where seen.insert(id).inserted {
            if let node = outermost[id] { operations.append(.replace(id, html: renderer.fragment(node))) }
        }
        return operations
    }

    /// Applies patches to a tree (the page's copy of a subtree) and returns the operations
    /// that take the browser's DOM along.
    /// - Throws: ``Mismatch`` when the patches do not apply to `tree`.
    func operations(for patches: [ViewPatch], in tree: PatchableTree) throws(Mismatch) -> [Operation] {
        // A section whose window moved keeps its element: only its row numbers change.
        var windows: [Operation] = []
        var movedWindows: Set<NodeID> = []
        for patch in patches {
            guard case .update(let id, let properties) = patch, case .section(let header, let footer, let first, let total) = properties.kind,
                case .section(header, footer, _, _)? = tree.properties(of: id)?.kind
            else { continue }
            windows.append(.window(id, firstRow: first, totalRows: total))
            movedWindows.insert(id)
        }
        do {
            try tree.apply(patches)
        } catch {
            throw Mismatch(description: error.description)
        }
        // Elements whose own properties changed are replaced whole; keep the outermost.
        let updated = patches.compactMap { patch -> NodeID? in
            if case .update(let id, _) = patch, !movedWindows.contains(id) { id } else { nil }
        }
        let replaced = updated.filter { id in !updated.contains { $0 != id && tree.isInside(id, $0) } }
        // Whether a replaced element brings `id` along: one that holds it (not the element
        // itself, which is moved to its place first and replaced there).
        func insideReplaced(_ id: NodeID) -> Bool { replaced.contains { $0 != id && tree.isInside(id, $0) } }

        var detaches: [Operation] = []
        var removals: [Operation] = []
        var attachments: [Operation] = []
        for patch in patches {
            switch patch {
            case .delete(let id):
                removals.append(.remove(id))
            case .move(let id, let parent, let index):
                if insideReplaced(id) {
                    removals.append(.remove(id))  // its replacement brings it
                } else {
                    detaches.append(.detach(id))
                    attachments.append(.attach(id, parent: parent, index: index))
                }
            case .insert(let element, let parent, let index):
                guard let parent else { throw Mismatch(description: "A new root: the page needs the whole tree.") }
                if insideReplaced(element.id) { continue }
                attachments.append(.insert(parent: parent, index: index, html: html(of: element, in: parent, of: tree, at: index)))
            case .update:
                continue
            }
        }
        let replacements = replaced.compactMap { id -> Operation? in
            guard let element = tree.element(id) else { return nil }
            // The subtree's own root has its parent outside it; a root is a node (a module
            // frame, a tab switch, a row), whose HTML does not depend on its parent.
            return .replace(id, html: html(of: element, in: tree.parent(of: id) ?? id, of: tree, wrapped: false))
        }
        let keptWindows = windows.filter { if case .window(let id, _, _) = $0 { !insideReplaced(id) } else { false } }
        return detaches + removals + attachments + replacements + keptWindows
    }

    /// An element's HTML; a row of a section comes in its `li` unless `wrapped` is false (in
    /// a window of a long list, the `li` says where the row at `index` is in the whole list).
    private func html(of element: ViewElement, in parent: NodeID, of tree: PatchableTree, at index: Int? = nil, wrapped: Bool = true) -> String {
        switch element {
        case .section(let section):
            guard case .list(let layout)? = tree.properties(of: parent)?.kind else { return renderer.fragment(section) }
            return renderer.fragment(section, layout: layout)
        case .node(let node):
            guard wrapped, case .section(_, _, let first, let total)? = tree.properties(of: parent)?.kind else { return renderer.fragment(node) }
            if let index, let first, let total { return renderer.rowFragment(node, at: first + index, of: total) }
            return renderer.rowFragment(node)
        }
    }
}
