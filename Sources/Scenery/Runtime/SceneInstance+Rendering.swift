extension SceneInstance {
    /// The whole scene's view tree: a vertical stack of module frames and tab switches,
    /// ids qualified by module.
    public func render() async -> ViewNode {
        var children: [ViewNode] = []
        for item in layout {
            children.append(contentsOf: await render(item))
        }
        return .stack("scene", children)
    }

    /// One layout item: a module's frame, or a tab switch with the selected tab's frames.
    func render(_ item: LayoutItem) async -> [ViewNode] {
        switch item {
        case .module(let id):
            return await renderFrame(id).map { [$0] } ?? []
        case .tabs(let switchID, let tabs):
            let selection = tabSelection[switchID] ?? tabs.first?.id ?? ""
            var content: [ViewNode] = []
            for id in tabs.first(where: { $0.id == selection })?.modules ?? [] {
                if let frame = await renderFrame(id) { content.append(frame) }
            }
            return [tabSwitch(switchID, tabs, selection: selection, content: content)]
        }
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
    /// Remembered as what the host now has, for later patches.
    func renderFrame(_ id: ModuleID) async -> ViewNode? {
        guard let slot = slots[id] else { return nil }
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
        frames[id] = RenderedFrame(node: frame, paths: nil)
        return frame
    }
}
