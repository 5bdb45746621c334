extension SceneInstance {
    /// The whole scene's view tree: a vertical stack of module frames and tab switches,
    /// ids qualified by module.
    ///
    /// The tree becomes the host's copy, as with ``snapshot()``: later updates take it to
    /// the next state. Use ``snapshot()`` to learn the sequence number it stands at.
    public func render() async -> ViewNode {
        await snapshot().node
    }

    /// A tab switch node for a selection, around the selected tab's module frames.
    func tabSwitch(_ switchID: String, _ tabs: [TabSpec], selection: String, content: [ViewNode]) -> ViewNode {
        let tabSwitch = ViewNode.TabSwitch(
            tabs: tabs.map { tab in
                .init(
                    id: tab.id, title: tab.title,
                    event: EventDescriptor(SceneEvents.selectTab, payload: ["tabs": .string(switchID), "tab": .string(tab.id)]))
            },
            selection: selection,
            content: .stack(NodeID("\(switchID)/\(selection)"), content))
        return ViewNode(id: NodeID(switchID), kind: .tabs(tabSwitch))
    }

    /// One module's frame: its own rendering, or the runtime's error block when it failed.
    func makeFrame(_ id: ModuleID) async -> ViewNode {
        guard let slot = slots[id] else { return .empty(NodeID(id.rawValue), "No module '\(id)'.") }
        let content: ViewNode
        if slot.status == .failed {
            content = ViewNode.error(
                "error", slot.failure ?? "\(slot.descriptor.type) could not load.",
                retry: EventDescriptor(SceneEvents.retry, payload: ["module": .string(id.rawValue)])
            ).qualified(by: id)
        } else if let window = windows[id] {
            content = await slot.module.render(window: window).qualified(by: id)
        } else {
            content = await slot.module.render().qualified(by: id)
        }
        let frame = ViewNode(
            id: NodeID(id.rawValue),
            kind: .module(ViewNode.ModuleFrame(module: id, type: slot.descriptor.type, status: slot.status, content: content)))
        return frame
    }
}
