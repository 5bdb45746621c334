/// Where each control of a tree is: by the control's id (as ``ViewNode/actions`` names
/// them), the path of the node that carries it, so a tap is checked against the tree in
/// the depth of the tree, not its size, and builds the event of the tapped control alone.
///
/// A scene makes one per module frame the first time a host looks a control up, and keeps
/// it while the frame's structure stays (a like that changes a button's title and a count
/// keeps every path); a change of structure drops it, and the next lookup makes it again.
package struct ControlIndex: Sendable {
    private var paths: [NodeID: [Int]] = [:]

    /// Indexes the controls of `root`; where two nodes share an id, the first in display
    /// order wins, as it does for ``ViewNode/action(withID:)``.
    package init(_ root: ViewNode) {
        var path: [Int] = []
        visit(root, &path)
    }

    private mutating func visit(_ node: ViewNode, _ path: inout [Int]) {
        for id in node.ownControlIDs where paths[id] == nil { paths[id] = path }
        node.forEachChild { child, steps in
            path += steps
            visit(child, &path)
            path.removeLast(steps.count)
        }
    }

    /// The node in `root` (the tree this index was made from) that carries the control.
    package func node(carrying id: NodeID, in root: ViewNode) -> ViewNode? {
        guard let path = paths[id], let node = root.node(at: path[...]), node.carriesControl(id) else { return nil }
        return node
    }

    /// The control with this id in `root`, its event built.
    package func action(withID id: NodeID, in root: ViewNode) -> ViewAction? {
        node(carrying: id, in: root)?.ownActions.first { $0.id == id }
    }
}
