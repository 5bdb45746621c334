/// A self-managing unit of a scene: it fetches, keeps state, formats and renders itself.
///
/// A module is an actor, so its state is safe however the host and the runtime call it.
/// It is created by a factory registered with ``SceneRegistry`` from validated
/// ``ModuleParameters`` and the service it needs; it never sees other modules or the
/// scene around it. It talks up only through events and ``ModuleContext/setNeedsRender()``,
/// and down only through its service.
///
/// The runtime drives it:
/// - ``load(_:)`` fetches data for the first time, on refresh, and for the next page.
///   If it throws or takes too long, the runtime shows the module's error block with a
///   retry control, and the rest of the scene renders normally.
/// - ``render()`` returns the module's subtree for its current state, with ids local to
///   the module (the scene qualifies them).
/// - ``handle(_:)`` sees every event from the module's own nodes first and decides what
///   happens to it; ``perform(_:)`` runs the event's default action once the scene has let
///   it through (after a confirmation, say).
/// - ``appear()`` and ``disappear()`` tell it when it is shown, so it holds live
///   subscriptions only while visible.
///
/// ```swift
/// actor GreetingModule: Module {
///     static let descriptor = ModuleDescriptor(
///         type: "GreetingModule",
///         summary: "Greets the viewer by name.",
///         parameters: [.init("name", .string, summary: "Who to greet.")])
///
///     private let name: String
///     private var state: LoadState<String> = .idle
///
///     init(parameters: ModuleParameters) throws {
///         name = try parameters.string("name")
///     }
///
///     func load(_ request: LoadRequest) async throws {
///         state = .loaded("Hello, \(name)!")
///     }
///
///     func render() -> ViewNode {
///         state.render(id: "greeting") { .text("text", $0, role: .title) }  // ids: greeting, text
///     }
/// }
/// ```
public protocol Module: Actor {
    /// What the module type is called in scene files, its parameters and its events.
    static var descriptor: ModuleDescriptor { get }

    /// Fetches data through the module's service and updates its state.
    ///
    /// Call ``ModuleContext/setNeedsRender()`` for intermediate states (such as a paging
    /// indicator); the runtime re-renders after the load returns in any case.
    /// - Throws: Any error of the service. The runtime catches it and shows the module's
    ///   error state with retry; `CancellationError` when the scene is left.
    func load(_ request: LoadRequest) async throws

    /// The module's subtree for its current state, with ids local to the module.
    func render() -> ViewNode

    /// The subtree with only the rows inside `window` of its long list (see ``RowWindow``).
    /// The default renders everything.
    func render(window: RowWindow) -> ViewNode

    /// Fetches what the rows inside `window` need before ``render(window:)`` shows them: a
    /// module that pages its data loads the rows the window reaches that it does not hold.
    ///
    /// The runtime calls it when a host moves the window, and after each first load or
    /// refresh while a window is set. The default does nothing.
    /// - Throws: Any error of the service. The module keeps what it shows and tells of the
    ///   failure in its own state, as it does for a failed next page.
    func load(window: RowWindow) async throws

    /// One node of the subtree rendered again, by its local id — so that a change to one row
    /// of a long list costs one row. Return `nil` (the default) to have the whole module
    /// rendered instead.
    func render(_ id: NodeID) -> ViewNode?

    /// Decides what happens to an event from one of the module's nodes.
    ///
    /// The event's `Event/source` is local to the module (`row.7/like`, not
    /// `blogs/row.7/like`). The default implementation passes every event on.
    func handle(_ event: Event) async -> EventDisposition

    /// Runs the default action of an event this module passed on, once the scene let it
    /// through. The default implementation does nothing.
    ///
    /// Throw when the action did not happen (a write failed and was rolled back): the route
    /// then ends `module ID: failed: <the error's message>`, the outcome is
    /// ``EventOutcome/Result/failed(in:reason:)``, and the host does not receive the event,
    /// since nothing happened to tell it of. Show the failure in the module as well: people
    /// see the module, not the route.
    ///
    /// ```swift
    /// func perform(_ event: Event) async throws {
    ///     guard let restore = try? Self.restore.payload(of: event) else { return }
    ///     do {
    ///         try await bin.restore(restore.blog, owner: owner)
    ///     } catch {
    ///         notice = "Couldn't restore: \(SceneryError.message(for: error))"
    ///         await context.setNeedsRender()
    ///         throw error
    ///     }
    /// }
    /// ```
    func perform(_ event: Event) async throws

    /// The module became visible. The default implementation does nothing.
    func appear() async

    /// The module is no longer visible. The default implementation does nothing.
    func disappear() async

    /// What the page is about, in a person's words, when this module names it (a profile's
    /// person, a blog's title): hosts use the first shown module's as the page's title and
    /// heading, instead of the scene's. `nil` (the default) when it names nothing, or has
    /// not loaded. A module that names the page shows the name itself (a `.title` text):
    /// the web host then keeps the page's `h1` for assistive technology only, so a person
    /// reads the name once.
    func pageTitle() -> String?

    /// What development tools show of the module's state, as named facts: how many rows it
    /// holds, how far it has paged, whether an editor is open. The page inspector
    /// (`scenery serve --inspect`) and `scenery interact`'s `inspect` show them with the
    /// module's parameters; the default is none.
    ///
    /// It describes this page's module for this page's viewer, and only that viewer's own
    /// page shows it. Tools cut long texts and lists (`SceneInstance.Inspection.state`), so
    /// prefer counts and ids to rows.
    ///
    /// ```swift
    /// func inspectableState() -> [String: JSONValue] {
    ///     ["rows": .int(rows.count), "editing": editing.map { .string($0) } ?? .null]
    /// }
    /// ```
    func inspectableState() -> [String: JSONValue]
}

extension Module {
    public func render(window: RowWindow) -> ViewNode { render() }
    public func load(window: RowWindow) async throws {}
    public func render(_ id: NodeID) -> ViewNode? { nil }
    public func handle(_ event: Event) async -> EventDisposition { .pass }
    public func perform(_ event: Event) async throws {}
    public func appear() async {}
    public func pageTitle() -> String? { nil }
    public func inspectableState() -> [String: JSONValue] { [:] }
    public func disappear() async {}
}
