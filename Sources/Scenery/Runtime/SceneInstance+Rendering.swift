extension SceneInstance {
    /// The whole scene's view tree as it is now: a vertical stack of module frames and tab
    /// switches, ids qualified by module.
    ///
    /// A query: the host's baseline and the updates on their way to it are left as they
    /// are. A host that keeps a copy of the tree and applies updates to it takes its copy
    /// with ``takeBaseline()`` instead (see ``SceneMirror``).
    public func render() async -> ViewNode {
        await renderTree().node
    }

    /// The whole tree as a document: like ``render()``, but every tab switch also carries
    /// the content of its unselected tabs (`ViewNode/TabSwitch/unselectedPanels`), so a
    /// JSON or HTML file holds everything the viewer may see. The host's copy is left as it
    /// is: a document is not a live tree, and no update applies to it.
    ///
    /// ```swift
    /// let page = HTMLRenderer().render(await scene.renderDocument(), title: "Profile")
    /// ```
    public func renderDocument() async -> ViewNode {
        var children: [ViewNode] = []
        for item in layout {
            switch item {
            case .module(let id):
                children.append(await makeFrame(id))
            case .tabs(let switchID, let tabs):
                let selection = tabSelection[switchID] ?? tabs.first?.id ?? ""
                var selected: [ViewNode] = []
                var panels: [String: ViewNode] = [:]
                for tab in tabs {
                    var content: [ViewNode] = []
                    for id in tab.modules { content.append(await makeFrame(id)) }
                    if tab.id == selection {
                        selected = content
                    } else {
                        panels[tab.id] = .stack(NodeID("\(switchID)/\(tab.id)"), content)
                    }
                }
                children.append(tabSwitch(switchID, tabs, selection: selection, content: selected, unselectedPanels: panels))
            }
        }
        return .stack("scene", children)
    }

    /// The tab switches of the scene and their tabs' ids, in layout order.
    public nonisolated var tabSwitches: [(id: String, tabs: [String])] {
        layout.compactMap { item in
            if case .tabs(let id, let tabs) = item { (id, tabs.map(\.id)) } else { nil }
        }
    }

    /// The tabs of the tab switch with an id, if the layout has one.
    func tabs(ofSwitch switchID: String) -> [TabSpec]? {
        for case .tabs(switchID, let tabs) in layout { return tabs }
        return nil
    }

    /// A tab switch node for a selection, around the selected tab's module frames (and, in
    /// a document, the other tabs' content).
    func tabSwitch(
        _ switchID: String, _ tabs: [TabSpec], selection: String, content: [ViewNode], unselectedPanels: [String: ViewNode] = [:]
    ) -> ViewNode {
        let tabSwitch = ViewNode.TabSwitch(
            tabs: tabs.map { tab in
                .init(
                    id: tab.id, title: tab.title,
                    event: EventDescriptor(.selectTab(tab.id, inSwitch: switchID)))
            },
            selection: selection,
            content: .stack(NodeID("\(switchID)/\(selection)"), content),
            unselectedPanels: unselectedPanels)
        return ViewNode(id: NodeID(switchID), kind: .tabs(tabSwitch))
    }

    /// One module's frame: its own rendering, or the runtime's error block when it failed.
    func makeFrame(_ id: ModuleID) async -> ViewNode {
        guard let slot = slots[id] else { return .empty(NodeID(id.rawValue), "No module '\(id)'.") }
        let content: ViewNode
        if slot.status == .failed {
            content = ViewNode.error(
                "error", slot.failure ?? "\(slot.descriptor.type) could not load.",
                retry: slot.isRetryable ? EventDescriptor(.retry(id)) : nil
            ).qualified(by: id)
        } else if let window = windows[id] {
            content = await slot.module.render(window: window).qualified(by: id).laidOut(slot.instance.display)
        } else {
            content = await slot.module.render().qualified(by: id).laidOut(slot.instance.display)
        }
        let frame = ViewNode(
            id: NodeID(id.rawValue),
            kind: .module(ViewNode.ModuleFrame(module: id, type: slot.descriptor.type, status: slot.status, content: content)))
        return frame
    }
}
