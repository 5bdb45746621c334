/// Something a person can activate in a view tree: a button, a tab, a retry control, a
/// form's submit control (its id is the form's), a field that sends its text as people type
/// (its id is the field's).
///
/// Hosts that cannot tap (a terminal, a test script) list a tree's actions and send the
/// chosen one's event:
///
/// ```swift
/// for action in tree.actions { print(action.id, action.title) }
/// if let like = tree.action(withID: "blogs/row.7/like") { await scene.send(like.event) }
/// ```
public struct ViewAction: Sendable, Hashable, Identifiable {
    /// The control's id: a button's or selectable node's id, a placeholder's node id for
    /// its retry, or `switch#tab` for a tab.
    public var id: NodeID
    /// What the control says.
    public var title: String
    /// The event activating it sends, with the control as its source.
    public var event: Event
}

extension ViewNode {
    /// Every action in the tree, in display order.
    public var actions: [ViewAction] { allNodes.flatMap(\.ownActions) }

    /// The actions this node carries itself (not its children's): a selectable node's,
    /// then its controls'.
    package var ownActions: [ViewAction] {
        // A button's own event is its action; a selectable node adds one.
        if let action, !isButton {
            let title = visibleTexts.first ?? id.rawValue
            return [ViewAction(id: id, title: title, event: Event(action, from: id))] + controls
        }
        return controls
    }

    /// Whether this node itself carries the control with this id; builds no event.
    package func carriesControl(_ control: NodeID) -> Bool {
        if control == id { return hasControlOfItsOwnID }
        guard case .tabs(let tabs) = kind, let named = control.tabControl, named.tabSwitch == id else { return false }
        return tabs.tabs.contains { $0.id == named.tab }
    }

    /// The ids of the controls this node itself carries, as ``actions`` names them.
    package var ownControlIDs: [NodeID] {
        var ids: [NodeID] = hasControlOfItsOwnID ? [id] : []
        if case .tabs(let tabs) = kind { ids += tabs.tabs.map { NodeID.tabControl($0.id, of: id) } }
        return ids
    }

    /// The controls of this node itself (not its children).
    private var controls: [ViewAction] {
        switch kind {
        case .button(let title, let event, _):
            return [ViewAction(id: id, title: title, event: Event(event, from: id))]
        case .placeholder(let placeholder):
            guard let retry = placeholder.retry else { return [] }
            return [ViewAction(id: id, title: "Retry", event: Event(retry, from: id))]
        case .form(let form):
            return [ViewAction(id: id, title: form.submit.title, event: form.submissionAsShown(from: id))]
        case .textField(let field):
            guard let event = try? field.change(to: field.value, from: id) else { return [] }
            return [ViewAction(id: id, title: field.label, event: event)]
        case .tabs(let tabs):
            return tabs.tabs.map { tab in
                let id = NodeID.tabControl(tab.id, of: self.id)
                return ViewAction(id: id, title: tab.title, event: Event(tab.event, from: id))
            }
        default:
            return []
        }
    }

    /// Whether the node carries a control with its own id: it is selectable, or its kind is
    /// a control (a tab switch's controls have the tabs' ids).
    private var hasControlOfItsOwnID: Bool {
        if action != nil { return true }
        switch kind {
        case .button, .form, .textField: return true
        case .placeholder(let placeholder): return placeholder.retry != nil
        default: return false
        }
    }

    private var isButton: Bool {
        if case .button = kind { return true }
        return false
    }

    /// The action with the given id, if the tree has it: found by a walk of the tree that
    /// builds the event of that control alone. (A scene finds a control of the tree it
    /// gave its host by an index instead: `SceneInstance.action(withID:)`.)
    public func action(withID id: NodeID) -> ViewAction? {
        for node in allNodes where node.carriesControl(id) {
            if let action = node.ownActions.first(where: { $0.id == id }) { return action }
        }
        return nil
    }
}
