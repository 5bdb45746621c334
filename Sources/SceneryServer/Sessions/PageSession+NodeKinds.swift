import Scenery
import SceneryPageProtocol

/// What a view-tree client that named fewer node kinds than the scene uses is sent: each
/// node it does not show as a placeholder that says why (``PageProtocol/NodeKinds``).
extension PageSession {
    /// `tree` as this page's client is sent it.
    func shown(_ tree: ViewNode) -> ViewNode {
        guard case .viewTree(let kinds) = opening.format, !kinds.showsEveryKind else { return tree }
        logUnshown(kinds.unshown(in: tree))
        return kinds.fitting(tree)
    }

    /// An update as this page's client is sent it: when the subtree held, or holds, a node
    /// the client does not show, its patches are those between the two subtrees as the
    /// client is sent them.
    func shown(_ update: SceneUpdate) -> SceneUpdate {
        guard case .viewTree(let kinds) = opening.format, !kinds.showsEveryKind else { return update }
        let unshown = kinds.unshown(in: update.node).union(update.previous.map(kinds.unshown(in:)) ?? [])
        guard !unshown.isEmpty else { return update }
        logUnshown(unshown)
        var fitted = update
        fitted.node = kinds.fitting(update.node)
        fitted.previous = update.previous.map(kinds.fitting)
        fitted.patches = fitted.previous.map { ViewTreeDiff(from: $0, to: fitted.node).patches } ?? []
        return fitted
    }

    /// Says once a page which kinds its client was not sent.
    private func logUnshown(_ unshown: Set<PageProtocol.NodeKind>) {
        let new = unshown.subtracting(unshownKindsLogged)
        guard !new.isEmpty else { return }
        unshownKindsLogged.formUnion(new)
        let names = PageProtocol.NodeKind.allCases.filter(new.contains).map(\.rawValue).joined(separator: ", ")
        logger.notice("page \(id) of \(sceneID): its client does not show \(names); it was sent a placeholder in place of each")
    }
}
