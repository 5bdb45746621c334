import Scenery

/// What a module shows of live data, kept true: the one place that fetches it again when it
/// changes, fetches again while it changed during the fetch, holds changes back while the
/// module's own writes are in flight, says when what is shown may be out of date and tries
/// again in order.
///
/// A module declares how it catches up with one change (`refresh`): fetch what the change
/// touches and put it into its state. The query calls it in the module's isolation, one
/// change at a time, and owns everything around it:
///
/// - **Changed meanwhile.** A fetch may read what was true before a change, or land after
///   another call showed newer data (an actor lets other calls in at each `await`). The
///   query takes the feed's position before each refresh and runs it again while what it
///   touched changed since (at most ``fetchesWhileChanging`` times in a row; the next change
///   starts again).
/// - **The module's own writes.** A write made through ``write(_:for:_:)`` is not handed
///   back to the module as a change; a change that arrives while a write is in flight waits
///   for it (a change to what is written, for that write; any other, for the last write) and
///   is refreshed after, so a fetch never lands before the module's own write.
/// - **Failures.** A refresh that throws leaves what is shown, sets ``staleNotice`` and has
///   the change tried again after the retry delay, in order with newer changes; the next
///   refresh that succeeds removes the notice. The module is rendered when the notice
///   comes or goes.
/// - **Hidden.** ``follow(_:for:)`` in `appear()`, ``stop()`` in `disappear()`: a hidden
///   module costs nothing per change, and shown again it refreshes ``LiveEntity/everything``
///   if it may have missed a change.
///
/// ```swift
/// public actor TaskListModule: Module {
///     private let tasks: LiveQuery<TaskListModule, BoardChange>
///     private var shown: [BoardTask] = []
///
///     init(board: some BoardService, owner: String, context: ModuleContext) {
///         tasks = LiveQuery(board, context: context) { module, _ in
///             module.shown = try await module.board.tasks(on: module.owner)
///             await module.context.setNeedsRender()
///         }
///         // …
///     }
///
///     public func appear() async { await tasks.follow([.board(owner)], for: self) }
///     public func disappear() async { tasks.stop() }
///
///     func toggle(_ task: BoardTask) async throws {
///         try await tasks.write(.board(owner), for: self) {
///             try await board.setDone(!task.isDone, task: task.id, on: owner)
///         }
///     }
/// }
/// ```
public final class LiveQuery<Owner: Actor, Entity: LiveEntity>: Sendable {
    /// Catches the module up with one change: fetches what `change` touches (everything the
    /// module shows for ``LiveEntity/everything``) and puts it into the module's state,
    /// rendering what it changed. Throws when the fetch fails; what is shown stays.
    public typealias Refresh = @Sendable (_ module: isolated Owner, _ change: Entity) async throws -> Void

    private let live: LiveChanges<Entity>
    private let context: ModuleContext
    private let catchUp: Refresh
    private let touches: @Sendable (Entity) -> Set<Entity>?
    /// The writes in flight and the stale notice, behind one lock: a page keeps a query per
    /// live module, so each lock is memory every open page holds.
    private let state = Locked(State())

    private struct State {
        var writes = WritesInFlight<Entity>()
        var staleNotice: String?
    }

    /// How many times in a row a refresh runs again because what it touched changed while
    /// it ran; past that, the next change refreshes again.
    public static var fetchesWhileChanging: Int { 3 }

    /// A query through `feed` (with no feed, it follows nothing and refreshes only when
    /// asked), rendering `context`'s module when its notice changes. A change whose refresh
    /// failed is tried again after `retryDelay`.
    ///
    /// `touches` narrows what a refresh of a change may be overtaken by: by default a change
    /// to anything the query follows while the refresh ran runs it again (a list fetched
    /// whole holds every row); a module whose refresh of one row fetches that row alone
    /// says so (`{ if case .blog = $0 { [$0] } else { nil } }`), and other rows' changes
    /// then do not fetch it again.
    public init(
        _ feed: (any ChangeFeed<Entity>)?, context: ModuleContext, retryDelay: Duration = .seconds(2),
        touches: @escaping @Sendable (Entity) -> Set<Entity>? = { _ in nil }, refresh: @escaping Refresh
    ) {
        live = LiveChanges(feed, retryDelay: retryDelay)
        self.context = context
        self.touches = touches
        catchUp = refresh
    }

    /// Says that what the module shows may be out of date, and why, while a change could
    /// not be fetched (it is tried again); `nil` otherwise.
    public var staleNotice: String? { state.withLock { $0.staleNotice } }

    /// What the query follows now (empty when stopped).
    public var entities: Set<Entity> { live.entities }

    /// Whether it is following anything.
    public var isFollowing: Bool { live.isFollowing }

    /// Whether a feed tells it of changes. A module shows a refresh control only when this
    /// is `false`, or while ``staleNotice`` says a change could not be fetched: a live page
    /// keeps itself true.
    public var isLive: Bool { live.hasFeed }

    /// What the query follows, for a module's `inspectableState()`: `following` (how
    /// many entities, while shown), `live` (whether it has a feed) and `stale` (whether a
    /// change could not be fetched and is being tried again).
    ///
    /// ```swift
    /// func inspectableState() -> [String: JSONValue] { list.inspectableState.merging(liveRows.inspectableState) { $1 } }
    /// ```
    public var inspectableState: [String: JSONValue] {
        ["following": .int(isFollowing ? entities.count : 0), "live": .bool(isLive), "stale": .bool(staleNotice != nil)]
    }

    /// Whether a write of `entity` made through ``write(_:for:_:)`` is in flight.
    public func isWriting(_ entity: Entity) -> Bool { state.withLock { $0.writes.contains(entity) } }

    /// Follows `entities` from now on (replacing what was followed), handing each change to
    /// `refresh` in `module`'s isolation. When changes may have been missed (the module was
    /// hidden, or what it follows changed since it was made), it refreshes
    /// ``LiveEntity/everything`` before returning.
    public func follow(_ entities: Set<Entity>, for module: isolated Owner) async {
        let missed = live.follow(entities) { [weak self, weak module] change in
            guard let self, let module else { return }
            await self.refresh(change, for: module)
        }
        if missed { await refresh(.everything, for: module) }
    }

    /// Stops following: changes are no longer fetched until ``follow(_:for:)``.
    public func stop() { live.stop() }

    /// Catches `module` up with `change` now: held while a write is in flight, run again
    /// while what it touched changed during the fetch, tried again later if it fails.
    public func refresh(_ change: Entity, for module: isolated Owner) async {
        for attempt in 1...Self.fetchesWhileChanging {
            if state.withLock({ $0.writes.hold(change) }) { return }
            let mark = live.mark
            do {
                try await catchUp(module, change)
            } catch {
                live.retry(change)
                if setStaleNotice(Self.staleText(for: error)) { await context.setNeedsRender() }
                return
            }
            if setStaleNotice(nil) { await context.setNeedsRender() }
            if attempt == Self.fetchesWhileChanging || !live.changed(touches(change), since: mark) { return }
        }
    }

    /// Makes the module's write of `entity`: the changes it publishes reach every other
    /// subscriber, not this module (it shows the write's result already); a change that
    /// arrives meanwhile waits for the write and is refreshed once `body` returns, so
    /// settle what is shown inside `body`. Returns `nil`, running nothing, when a write of
    /// `entity` is in flight already (the second tap is ignored rather than racing the
    /// first).
    ///
    /// ```swift
    /// list.replace(BlogLikes.toggled(original, liked: true))  // shown at once
    /// try await rows.write(.blog(id), for: self) {
    ///     list.replace(try await blogs.setLiked(true, blog: id, by: viewer))  // settled
    /// }
    /// ```
    @discardableResult
    public func write<Value, Failure: Error>(
        _ entity: Entity, for module: isolated Owner, _ body: () async throws(Failure) -> Value
    ) async throws(Failure) -> Value? {
        guard state.withLock({ $0.writes.begin(entity) }) else { return nil }
        let outcome = await writing(isolation: module, body)
        for held in state.withLock({ $0.writes.end(entity) }) { await refresh(held, for: module) }
        return try outcome.get()
    }

    /// Makes a write that names no one entity (a form saved), as ``write(_:for:_:)`` does:
    /// never refused; changes arriving meanwhile wait for it.
    public func write<Value, Failure: Error>(for module: isolated Owner, _ body: () async throws(Failure) -> Value) async throws(Failure) -> Value {
        state.withLock { $0.writes.beginUnnamed() }
        let outcome = await writing(isolation: module, body)
        for held in state.withLock({ $0.writes.endUnnamed() }) { await refresh(held, for: module) }
        return try outcome.get()
    }

    /// Sets the stale notice; whether it changed (the module renders it then).
    private func setStaleNotice(_ text: String?) -> Bool {
        state.withLock { state in
            defer { state.staleNotice = text }
            return state.staleNotice != text
        }
    }

    /// What a module shows when it could not fetch what changed: what it shows may be out
    /// of date, why (in words for viewers), and that it tries again.
    static func staleText(for error: any Error) -> String {
        "Couldn't show the latest: \(SceneryError.messageForViewers(of: error)) Trying again."
    }

    /// Runs `body` as the module's writer, catching what it throws.
    private func writing<Value, Failure: Error>(
        isolation: isolated Owner, _ body: () async throws(Failure) -> Value
    ) async -> Result<Value, Failure> {
        await live.writing(isolation: isolation) {
            _ = isolation  // in the module's isolation, not off it (see `LiveChanges.writing`)
            do throws(Failure) {
                return .success(try await body())
            } catch {
                return .failure(error)
            }
        }
    }
}
