/// A scene's whole tree and the point of its update stream it stands at.
///
/// Get one from ``SceneInstance/takeBaseline()``: it becomes the host's copy, and the next
/// update the host should apply is numbered ``sequence`` + 1.
public struct SceneSnapshot: Sendable, Hashable {
    /// The whole tree.
    public var node: ViewNode
    /// The sequence number of the last update the tree includes; `0` before any update.
    public var sequence: Int

    /// Creates a snapshot.
    public init(node: ViewNode, sequence: Int) {
        self.node = node
        self.sequence = sequence
    }
}
