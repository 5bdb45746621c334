/// How a scene keeps its host's copy of the tree in step, whatever runs concurrently.
///
/// The scene keeps a model of what the host has (`frames`, `shownTabs`): the tree of the
/// last ``SceneInstance/takeBaseline()`` plus every update made since. Three rules make every
/// update apply to the host's copy in the order delivered:
///
/// 1. **Render, then commit without suspending.** A module on its page renders in line; one
///    that is an actor of its own renders across a hop, and other work may run meanwhile. The
///    diff is therefore taken only after the rendering returns, against the model as it is
///    *then*, and the model, the sequence number and the outbox change together in one
///    synchronous step.
/// 2. **The newest rendering wins.** Each change renders its module in a pass of its own
///    (``RenderPasses``); a pass that comes back after a pass begun later committed is
///    dropped, so the last rendering shows the last state (changes are never lost, and the
///    host never goes back to an older rendering).
/// 3. **One delivery loop.** Updates leave the outbox (``SceneOutbox``) in sequence order
///    through a single loop; whoever finds none running starts one, everyone else awaits
///    the running one's end and looks again. No list of waiters: the loop is a task.
extension SceneInstance {
    /// What a pass renders: all of the module, or some of its nodes.
    struct RenderRequest: Sendable {
        var whole = false
        var nodes: [NodeID] = []

        init(_ nodes: [NodeID]?) {
            guard let nodes, !nodes.isEmpty else {
                whole = true
                return
            }
            for node in nodes where !self.nodes.contains(node) { self.nodes.append(node) }
        }
    }

    /// Called through a module's context when its state changed.
    func moduleDidChange(_ change: ModuleChange) async {
        // What a change means is said to other people's pages only: not to the page whose
        // person's action made it (the hub hands it over under that page's origin).
        if let announcement = change.announcement, WriteContext.current.page != origin, frames[change.module] != nil {
            changes.announce(announcement, for: change.module)
        }
        await requestRender(change.module, nodes: change.nodes)
    }

    /// Renders a module again (or some of its nodes) and tells the host, with patches from
    /// the frame it has. Returns once the host has been told (or immediately when called
    /// from inside the host's own `sceneDidUpdate`, which must not wait for itself).
    ///
    /// Nothing is rendered for a module the host does not show: before the host's first
    /// ``takeBaseline()``, there is nothing to update, and a long list is not rendered for nobody.
    func requestRender(_ id: ModuleID, nodes: [NodeID]? = nil) async {
        guard phase != .left, slots[id] != nil else { return }
        changes.changed(id)
        guard frames[id] != nil else { return }  // not in the host's tree; a later rendering shows it
        let pass = passes.begin(id)
        // A pass that begins while an older one is away renders everything: the older one's
        // rendering may be dropped, and with it the nodes it was to show.
        let request = RenderRequest(pass.overlapped ? nil : nodes)
        let started = tooling.isObserved ? ContinuousClock.now : nil
        let sequence = await renderPass(pass, request)
        if let started, let type = slots[id]?.instance.type {
            tooling.record(.rendered(id, type: type, duration: .now - started), inScene: sceneID)
        }
        passes.end(pass)
        // The last pass of a change has shown what the change meant, or changed nothing to announce.
        if !passes.isRendering(id) { changes.dropAnnouncements(of: id) }
        await deliver(through: sequence)
    }

    /// One pass: the requested nodes alone when the module can render them and the host
    /// shows them, else the whole frame. Returns the sequence number after its commit (the
    /// current one when it commits nothing).
    private func renderPass(_ pass: RenderPasses.Pass, _ request: RenderRequest) async -> Int {
        let id = pass.module
        guard let slot = slots[id] else { return outbox.sequence }
        if !request.whole, slot.status == .ready {
            var rendered: [ViewNode] = []
            for local in request.nodes {
                guard let node = await slot.module.render(local) else { break }
                rendered.append(node.qualified(by: id))
            }
            if rendered.count == request.nodes.count, let committed = commitNodes(rendered, in: pass) {
                return committed
            }
        }
        let frame = await makeFrame(id)
        return commitFrame(frame, in: pass)
    }

    /// Puts a module's new frame into the host's copy and queues the update. Synchronous:
    /// the diff is against the copy as it is now.
    private func commitFrame(_ frame: ViewNode, in pass: RenderPasses.Pass) -> Int {
        let id = pass.module
        guard phase != .left, passes.mayCommit(pass), let previous = frames[id]?.node else { return outbox.sequence }
        passes.commit(pass)
        frames[id] = RenderedFrame(node: frame, rows: nil)
        let diff = ViewTreeDiff(from: previous, to: frame)
        return enqueue(SceneUpdate(node: frame, module: id, patches: diff.patches, diagnostics: diff.diagnostics, previous: previous))
    }

    /// Puts single nodes into the host's copy of a module's frame, each in place, and queues
    /// one update per node. Returns `nil` when a node is not in the frame (the caller then
    /// renders the whole module).
    private func commitNodes(_ nodes: [ViewNode], in pass: RenderPasses.Pass) -> Int? {
        let id = pass.module
        guard phase != .left, passes.mayCommit(pass), frames[id] != nil else { return outbox.sequence }
        passes.commit(pass)
        var last = outbox.sequence
        for node in nodes {
            guard let path = path(of: node.id, inFrameOf: id), let old = frames[id]?.node.node(at: path[...]) else { return nil }
            let diff = ViewTreeDiff(from: old, to: node)
            frames[id]?.node.replace(at: path[...], with: node)
            // A change of structure inside the node may move rows of lists below it.
            if diff.patches.contains(where: { if case .update = $0 { false } else { true } }) {
                frames[id]?.rows = nil
                frames[id]?.controls = nil
            }
            last = enqueue(SceneUpdate(node: node, module: id, patches: diff.patches, diagnostics: diff.diagnostics, previous: old))
        }
        return last
    }

    /// Where a node is in a module's frame: a list row from the frame's row index (made
    /// here the first time), any other node by a walk of the frame.
    private func path(of node: NodeID, inFrameOf id: ModuleID) -> [Int]? {
        if frames[id]?.rows == nil, let frame = frames[id]?.node {
            // Compute first: an optional-chained assignment starts its write before its right side.
            let rows = RowIndex(frame)
            frames[id]?.rows = rows
        }
        return frames[id]?.rows?.path(of: node) ?? frames[id]?.node.path(to: node)
    }

    /// Renders the entering tab's modules and commits the switch as one update.
    func commitTabSwitch(_ switchID: String, tabs: [TabSpec], to tab: TabSpec) async {
        guard phase != .left, hostHasTree else { return }
        var counts: [ModuleID: Int] = [:]
        var content: [ViewNode] = []
        for id in tab.modules {
            counts[id] = changes.count(of: id)
            content.append(await makeFrame(id))
        }
        // Another switch may have happened meanwhile; it commits its own selection.
        guard phase != .left, tabSelection[switchID] == tab.id, let shown = shownTabs[switchID], shown != tab.id else { return }
        let leaving = tabs.first { $0.id == shown }?.modules ?? []
        let before = tabSwitch(switchID, tabs, selection: shown, content: leaving.compactMap { frames[$0]?.node })
        let after = tabSwitch(switchID, tabs, selection: tab.id, content: content)
        for id in leaving { frames[id] = nil }
        for (id, frame) in zip(tab.modules, content) { frames[id] = RenderedFrame(node: frame, rows: nil) }
        shownTabs[switchID] = tab.id
        let diff = ViewTreeDiff(from: before, to: after)
        let committed = enqueue(SceneUpdate(node: after, module: nil, patches: diff.patches, diagnostics: diff.diagnostics, previous: before))
        // A module that changed while it was rendered for the switch is rendered again.
        for (id, count) in counts where changes.count(of: id) != count { await requestRender(id) }
        await deliver(through: committed)
    }

    /// Brings the host's copy of a tab switch to the selected tab, if it shows another.
    private func commitSelectedTab(of switchID: String) async {
        guard let tabs = tabs(ofSwitch: switchID), let tab = tabs.first(where: { $0.id == tabSelection[switchID] })
        else { return }
        await commitTabSwitch(switchID, tabs: tabs, to: tab)
    }

    /// Gives an update the next sequence number and queues it for the host. Updates
    /// without patches are not sent: the host's copy already shows them.
    private func enqueue(_ update: SceneUpdate) -> Int {
        guard !update.patches.isEmpty else { return outbox.sequence }
        var update = update
        if let module = update.module, let announcements = changes.takeAnnouncements(of: module) {
            update.announcements = announcements
        }
        return outbox.enqueue(update)
    }

    /// Hands queued updates to the host in sequence order until `target` was delivered.
    ///
    /// One loop hands them over (`delivery`), so the host gets one at a time, in order.
    /// Whoever finds none running starts one in line, on the page (`Task.immediate`: no hop,
    /// and a host that does not suspend has been told when it returns); whoever finds one
    /// running awaits its end, then looks again. Called from inside the host's own
    /// `sceneDidUpdate`, it returns at once: the running loop hands the update over next, and
    /// waiting here would wait for itself.
    func deliver(through target: Int) async {
        while phase != .left, !outbox.hasDelivered(through: target) {
            if outbox.isHandingOver, UpdateDelivery.scene == ObjectIdentifier(self) { return }
            let loop = delivery ?? startDelivery()
            await loop.value
            if delivery == loop { delivery = nil }
        }
    }

    /// Starts the delivery loop in line, on the page, and keeps it as `delivery` (a loop that
    /// ends without suspending has ended when this returns).
    private func startDelivery() -> Task<Void, Never> {
        let loop = Task.immediate { await self.handOverQueued() }
        delivery = loop
        return loop
    }

    /// The delivery loop: hands every queued update to the host, oldest first.
    private func handOverQueued() async {
        outbox.isHandingOver = true
        let token = ObjectIdentifier(self)
        while phase != .left, let update = outbox.next() {
            await UpdateDelivery.$scene.withValue(token) { await host.sceneDidUpdate(update) }
            outbox.markDelivered(through: update.sequence)
        }
        outbox.isHandingOver = false
    }

    /// Takes the whole tree as the host's new baseline: later updates are diffed against
    /// it, and updates queued for the host that it already includes are dropped.
    ///
    /// Use it for the host's first tree and to resynchronise: a host that missed an update
    /// (a gap in ``SceneUpdate/sequence``) or distrusts its copy takes a new baseline and
    /// drops updates numbered at or below ``SceneSnapshot/sequence``. ``SceneMirror`` does
    /// that bookkeeping; to look at the tree without touching the host's baseline, use
    /// ``render()``.
    ///
    /// A module that changes while the tree is being rendered sends that change as the
    /// next update, numbered after the baseline; it may reach the host before this call
    /// returns, so a host keeps such updates and applies them to the baseline's tree
    /// (``SceneMirror/prepareToAttach()`` holds them).
    ///
    /// Updates the baseline includes and that were not delivered yet are dropped, so a host
    /// takes baselines one at a time: an older baseline taken in after a newer one could not
    /// be caught up.
    ///
    /// ```swift
    /// var mirror = SceneMirror()
    /// mirror.prepareToAttach()
    /// mirror.attach(await scene.takeBaseline())
    /// ```
    public func takeBaseline() async -> SceneSnapshot {
        let rendered = await renderTree()
        // The host's copy is now this tree; queued updates are part of it already.
        frames = rendered.frames
        // A pass begun before the tree rendered its module must not put an older rendering back.
        for (id, pass) in rendered.passes { passes.supersede(id, through: pass) }
        shownTabs = rendered.selections
        hostHasTree = phase != .left
        outbox.takeBaseline()
        let snapshot = SceneSnapshot(node: rendered.node, sequence: outbox.sequence)
        // A module that changed, or a tab selected, while this tree was being rendered sends
        // that change next.
        let stale = rendered.counts.filter { changes.count(of: $0.key) != $0.value }.map(\.key)
        let switched = rendered.selections.filter { tabSelection[$0.key] != $0.value }.map(\.key)
        for switchID in switched { await commitSelectedTab(of: switchID) }
        for id in stale { await requestRender(id) }
        return snapshot
    }

    /// The host's new baseline; the former name of ``takeBaseline()``.
    @available(*, deprecated, renamed: "takeBaseline()", message: "snapshot() resets the host's baseline; the new name says so.")
    public func snapshot() async -> SceneSnapshot {
        await takeBaseline()
    }

    /// The tree of the selected tabs, each shown module rendered once, with what a baseline
    /// records of it: each module's change count when it was rendered, its frame, and each
    /// tab switch's selection.
    func renderTree() async -> RenderedTree {
        var rendered = RenderedTree()
        var children: [ViewNode] = []
        for item in layout {
            switch item {
            case .module(let id):
                children.append(await frame(of: id, into: &rendered))
            case .tabs(let switchID, let tabs):
                let selection = tabSelection[switchID] ?? tabs.first?.id ?? ""
                var content: [ViewNode] = []
                for id in tabs.first(where: { $0.id == selection })?.modules ?? [] { content.append(await frame(of: id, into: &rendered)) }
                rendered.selections[switchID] = selection
                children.append(tabSwitch(switchID, tabs, selection: selection, content: content))
            }
        }
        rendered.node = .stack("scene", children)
        return rendered
    }

    /// A module's frame, noting its change count before rendering and the frame after.
    private func frame(of id: ModuleID, into rendered: inout RenderedTree) async -> ViewNode {
        rendered.counts[id] = changes.count(of: id)
        rendered.passes[id] = passes.latest(of: id)
        let frame = await makeFrame(id)
        rendered.frames[id] = RenderedFrame(node: frame, rows: nil)
        return frame
    }

    /// A rendering of the whole scene, and what a baseline keeps of it.
    struct RenderedTree {
        var node: ViewNode = .stack("scene", [])
        var counts: [ModuleID: Int] = [:]
        /// The latest render pass of each module begun before the tree rendered it.
        var passes: [ModuleID: Int] = [:]
        var frames: [ModuleID: RenderedFrame] = [:]
        var selections: [String: String] = [:]
    }
}

/// Which scene is delivering updates in the current task (to spot a host that calls back
/// into the scene from its `sceneDidUpdate`).
enum UpdateDelivery {
    @TaskLocal static var scene: ObjectIdentifier?
}
