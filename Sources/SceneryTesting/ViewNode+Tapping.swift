import Scenery

extension ViewNode {
    /// The control a test taps, by id, or a failure that lists the controls there are.
    func actionToTap(_ id: NodeID) throws(ExpectationFailure) -> ViewAction {
        if let action = action(withID: id) { return action }
        let available = actions.map(\.id.rawValue).joined(separator: ", ")
        throw ExpectationFailure("there is no control '\(id)' to tap; controls: \(available.isEmpty ? "none" : available).")
    }
}
