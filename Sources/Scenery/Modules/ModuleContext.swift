/// What a module knows of the world around it: its id, who is looking, and a way to say
/// it changed.
///
/// A module keeps its context and calls ``setNeedsRender()`` after a state change that
/// did not come from a runtime call (an optimistic update, a live subscription): the
/// scene re-renders that module's subtree and tells the host.
public struct ModuleContext: Sendable {
    /// The module's id in its scene.
    public var id: ModuleID
    /// Who is looking at the scene, `nil` when signed out.
    public var viewer: String?
    /// The isolation the module's page runs in (see ``PageIsolation``).
    public let page: PageIsolation
    /// Hands a change to the scene in the caller's isolation (the page's, for a module on
    /// its page: no hop off it and back).
    private let notify: @Sendable (isolated (any Actor)?, ModuleChange) async -> Void

    /// Creates a context for a module in `page` (a page of its own by
    /// default, as in a module's unit test); `notify` receives each ``setNeedsRender()``
    /// and ``setNeedsRender(_:)``.
    public init(
        id: ModuleID, viewer: String?, page: PageIsolation = PageIsolation(),
        notify: @escaping @Sendable (ModuleChange) async -> Void = { _ in }
    ) {
        self.init(id: id, viewer: viewer, page: page) { _, change in await notify(change) }
    }

    /// A context whose changes reach the scene in the caller's isolation.
    init(
        id: ModuleID, viewer: String?, page: PageIsolation,
        notifyingIn notify: @escaping @Sendable (isolated (any Actor)?, ModuleChange) async -> Void
    ) {
        self.id = id
        self.viewer = viewer
        self.page = page
        self.notify = notify
    }

    /// The page's executor, for a module to run in its page's isolation: a module names it as its own,
    /// and its calls to and from the scene are then plain calls.
    ///
    /// ```swift
    /// nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }
    /// ```
    public var unownedExecutor: UnownedSerialExecutor { page.unownedExecutor }

    /// Tells the scene the module's state changed, so its subtree is rendered again.
    ///
    /// Returns once the host has been told. Does nothing after the scene was left.
    public nonisolated(nonsending) func setNeedsRender() async {
        await notify(#isolation, ModuleChange(module: id, nodes: nil))
    }

    /// Tells the scene that only these nodes changed (local ids, such as `blog.27`): the scene
    /// asks ``Module/render(_:)`` for each, so a one-row change in a long list costs one row.
    public nonisolated(nonsending) func setNeedsRender(_ nodes: [NodeID]) async {
        await notify(#isolation, ModuleChange(module: id, nodes: nodes))
    }

    /// Tells the scene the module changed because of someone else (a live change), and what
    /// that means in a person's words ("New like on “Trip notes”", "New blogs: 2"), in the
    /// page's language; `nodes` as for ``setNeedsRender(_:)``, `nil` for the whole module.
    ///
    /// A host tells the person politely (a web page's live region), at most once per batch
    /// of changes. Nothing is said when the rendering changes nothing, nor on the page whose
    /// person's action made the change (``ChangeSource``). Never put in it what the viewer
    /// may not see: say what changed, not who did it, unless that is public.
    ///
    /// ```swift
    /// await context.setNeedsRender([row], announcing: "New like on “\(blog.title)”")
    /// ```
    public nonisolated(nonsending) func setNeedsRender(_ nodes: [NodeID]? = nil, announcing announcement: String) async {
        await notify(#isolation, ModuleChange(module: id, nodes: nodes, announcement: announcement))
    }
}

/// What a module said changed: all of it, or some nodes.
public struct ModuleChange: Sendable, Hashable {
    /// The module.
    public var module: ModuleID
    /// The local ids of the nodes that changed, or `nil` for the whole module.
    public var nodes: [NodeID]?
    /// What the change means to a person, when the module says so.
    public var announcement: String?

    public init(module: ModuleID, nodes: [NodeID]?, announcement: String? = nil) {
        self.module = module
        self.nodes = nodes
        self.announcement = announcement
    }
}
