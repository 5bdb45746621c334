/// The outermost level of the event route: whatever shows the scene to a person.
///
/// A host answers confirmations, carries out navigation, receives the events that were
/// let all the way through, and learns which module subtrees changed. The `scenery`
/// command, a UIKit view controller and `SceneryTesting`'s `RecordingHost` are hosts.
///
/// ```swift
/// struct AlertHost: SceneHost {
///     func confirm(_ confirmation: Confirmation) async -> Bool { await showAlert(confirmation) }
///     func navigate(to intent: NavigationIntent) async { push(intent.scene, intent.arguments) }
/// }
/// ```
///
/// The scene calls its host from its page's executor (``PageIsolation``). A host whose own
/// page object runs there too writes its methods `nonisolated(nonsending)`: they then run
/// on the page, with no hop off it and back; a host written with plain `async` methods
/// works the same, a hop further away.
public protocol SceneHost: Sendable {
    /// Asks the person; returns whether they accepted.
    nonisolated(nonsending) func confirm(_ confirmation: Confirmation) async -> Bool

    /// Shows another scene.
    nonisolated(nonsending) func navigate(to intent: NavigationIntent) async

    /// Receives an event that no level handled or stopped. The default does nothing.
    nonisolated(nonsending) func receive(_ event: Event) async

    /// Learns that a subtree of the scene was rendered again. The default does nothing.
    nonisolated(nonsending) func sceneDidUpdate(_ update: SceneUpdate) async
}

extension SceneHost {
    public nonisolated(nonsending) func receive(_ event: Event) async {}
    public nonisolated(nonsending) func sceneDidUpdate(_ update: SceneUpdate) async {}
}

/// A change of a scene's tree: one subtree, rendered again, to put in place of the
/// node with the same id.
///
/// A module's state change updates its frame (a `ViewNode/Kind/module(_:)` node);
/// selecting a tab updates the tab switch.
///
/// ``patches`` take the tree the host last got (from ``SceneInstance/takeBaseline()`` or earlier
/// updates) to the new one, touching only what changed; hosts that redraw whole subtrees
/// can use ``node`` instead.
///
/// Updates form a stream: a scene numbers them 1, 2, 3, … in ``sequence`` and delivers
/// them in that order, one at a time, each made against the tree the previous one left.
/// Applied in order, they always apply. A host that sees a gap (it dropped one) or
/// distrusts its copy takes ``SceneInstance/takeBaseline()`` again and drops updates numbered
/// at or below the snapshot's ``SceneSnapshot/sequence``.
public struct SceneUpdate: Sendable, Hashable {
    /// The new subtree; replaces the node with the same id.
    public var node: ViewNode
    /// The module whose frame changed, or `nil` for a tab switch.
    public var module: ModuleID?
    /// The changes from the previous rendering of that subtree (empty if there was none).
    public var patches: [ViewPatch]
    /// Problems the diff found, such as an id used twice by the module (a module bug: the
    /// patches stay correct, but coarser).
    public var diagnostics: [String]
    /// The update's place in its scene's stream: one more than the update before it
    /// (`0` for an update not made by a scene).
    public var sequence: Int
    /// The subtree as the host had it before this update — what ``patches`` apply to — or
    /// `nil` for an update not made by a scene. A host that keeps no copy of the tree works
    /// from it and ``node`` (the browser host turns the patches into DOM operations so).
    public var previous: ViewNode?
    /// What the update means to a person, as the module said
    /// (``ModuleContext/setNeedsRender(_:announcing:)``): other people's changes only, never
    /// the viewer's own. A host says them politely, at most once per batch.
    public var announcements: [String]

    /// Creates an update.
    public init(
        node: ViewNode, module: ModuleID?, patches: [ViewPatch] = [], diagnostics: [String] = [], sequence: Int = 0, previous: ViewNode? = nil,
        announcements: [String] = []
    ) {
        self.announcements = announcements
        self.sequence = sequence
        self.previous = previous
        self.node = node
        self.module = module
        self.patches = patches
        self.diagnostics = diagnostics
    }
}
