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
    private let notify: @Sendable (ModuleID) async -> Void

    /// Creates a context; `notify` receives the module id on each ``setNeedsRender()``.
    public init(id: ModuleID, viewer: String?, notify: @escaping @Sendable (ModuleID) async -> Void = { _ in }) {
        self.id = id
        self.viewer = viewer
        self.notify = notify
    }

    /// Tells the scene the module's state changed, so its subtree is rendered again.
    ///
    /// Returns once the host has been told. Does nothing after the scene was left.
    public func setNeedsRender() async {
        await notify(id)
    }
}
