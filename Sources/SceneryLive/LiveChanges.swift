import Scenery
import Synchronization

/// A module's subscription to the changes of what it shows, held while it is visible.
///
/// A module starts it in `appear()` with the entities it shows (``follow(_:_:)``), starts it
/// again when those change (a new page of rows), and ends it in `disappear()` (``stop()``):
/// a hidden tab, a row window scrolled away or a page that was left costs nothing per
/// change. Changes reach `apply` one at a time, in order, from one queue: a change tried
/// again after a failed fetch (``retry(_:)``) waits its turn in it. When it follows again
/// after a stop, ``follow(_:_:)`` says so, and the module fetches what it shows again.
///
/// A module writes through ``writing(isolation:_:)``, so that its own write does not come back to it
/// as a change to fetch (it shows the write's result already).
///
/// ```swift
/// private let live: LiveChanges<BoardChange>
///
/// public func appear() async {
///     let missed = live.follow([.task(id)]) { [weak self] _ in await self?.reload() }
///     if missed { await reload() }
/// }
/// public func disappear() async { live.stop() }
/// ```
public final class LiveChanges<Entity: LiveEntity>: Sendable {
    private struct Following {
        let entities: Set<Entity>
        let changes: ChangeStream<Entity>
        /// Which `follow` this is: a retry of an earlier one is dropped.
        let generation: Int
    }

    private let feed: (any ChangeFeed<Entity>)?
    private let current = Locked<Following?>(nil)
    private let generations = Atomic<Int>(0)
    private let stoppedSinceFollowing = Atomic<Bool>(false)
    /// The feed's position when the module was made (before its first load), and whether it
    /// has followed since: a module first shown later (a tab) may have missed changes.
    private let markAtStart: Int?
    private let hasFollowed = Atomic<Bool>(false)
    /// The module's writer: its writes do not come back to its subscription.
    public let writer = ChangeSource()
    /// How long ``retry(_:)`` waits before handing a change to the module again.
    public let retryDelay: Duration

    /// A subscription through `feed`; with no feed, ``follow(_:_:)`` does nothing.
    /// `retryDelay` is how long a change whose fetch failed waits before it is tried again.
    public init(_ feed: (any ChangeFeed<Entity>)?, retryDelay: Duration = .seconds(2)) {
        self.feed = feed
        self.retryDelay = retryDelay
        markAtStart = feed?.changeMark
    }

    deinit { current.withLock { $0?.changes.end() } }

    /// Whether a feed tells it of changes: a module whose data is live needs no refresh
    /// control of its own.
    public var hasFeed: Bool { feed != nil }

    /// The feed's position now (`nil` without a feed): take it before a fetch and ask
    /// ``changed(_:since:)`` once the fetch is applied.
    public var mark: Int? { feed?.changeMark }

    /// Whether `entities` (what the subscription follows, when `nil`), or everything,
    /// changed since `mark`. A fetch that ran meanwhile may have read what was true before
    /// the change, and a module's other calls may have applied the change while the fetch
    /// was away (an actor lets them in at each `await`), so the fetch may have put older data
    /// over newer: fetch again. `false` without a feed.
    ///
    /// ```swift
    /// repeat {
    ///     let mark = live.mark
    ///     show(try await board.tasks(on: owner))
    /// } while live.changed(since: mark)
    /// ```
    public func changed(_ entities: Set<Entity>? = nil, since mark: Int?) -> Bool {
        guard let feed, let mark else { return false }
        return feed.hasChanged(entities ?? self.entities, since: mark)
    }

    /// What the subscription follows now (empty when stopped).
    public var entities: Set<Entity> { current.withLock { $0?.entities ?? [] } }

    /// Follows `entities` from now on, replacing what was followed (nothing happens if it is
    /// the same set). The subscription is open when this returns.
    ///
    /// Returns whether changes may have been missed: the subscription was stopped since it
    /// last followed (the module was hidden), or, at the first follow, what it follows
    /// changed since the module was made (it loaded in a tab not shown until now). The
    /// module then fetches what it shows again, so that a tab selected, or a page gone back
    /// to, shows what is true now.
    @discardableResult
    public func follow(_ entities: Set<Entity>, _ apply: @escaping @Sendable (Entity) async -> Void) -> Bool {
        guard let feed else { return false }
        var missed = stoppedSinceFollowing.exchange(false, ordering: .acquiringAndReleasing)
        if !hasFollowed.exchange(true, ordering: .acquiringAndReleasing), let markAtStart {
            missed = missed || feed.hasChanged(entities, since: markAtStart)
        }
        current.withLock { current in
            if current?.entities == entities { return }
            current?.changes.end()
            // No task waits for changes: one runs while changes wait to be applied, so a page
            // that shows something nobody changes holds no task for it.
            let changes = feed.changes(to: entities, ignoringWritesOf: writer)
            changes.subscription.handle(priority: .utility, apply)
            let generation = generations.add(1, ordering: .relaxed).newValue
            current = Following(entities: entities, changes: changes, generation: generation)
        }
        return missed
    }

    /// Runs `write` as this module's writer (`WriteContext.writer`): the changes it
    /// publishes reach every other subscriber, not this one, which shows the write's result
    /// already. Another writer's change to the same entity still arrives.
    ///
    /// Write from the task the runtime runs the module's event, load or live change in: it
    /// says what the write is for (`WriteContext.isBound`). Debug builds stop at a write
    /// from a task that lost it (a `Task.detached`); a write nobody's action makes says so
    /// with `WriteContext.outsideAnyAction`.
    ///
    /// ```swift
    /// let count = try await live.writing { try await blogs.setLiked(true, blog: id, by: viewer) }
    /// ```
    public func writing<Value>(
        isolation: isolated (any Actor)? = #isolation, _ write: () async throws -> Value
    ) async rethrows -> Value {
        assert(
            WriteContext.current.isBound,
            "A module wrote from a task that lost its write context (a Task.detached?): write from the task that runs its event, load or live change, or wrap a write nobody's action makes in WriteContext.outsideAnyAction."
        )
        // The closure names `isolation` (in its body: a capture list would copy it), so it
        // runs there; one that names no actor runs on none, a hop off the module's page and
        // back for every write.
        return try await WriteContext.current.writing(as: writer).run {
            _ = isolation
            return try await write()
        }
    }

    /// Hands `change` to the module again after ``retryDelay``, unless the subscription
    /// stopped or changed meanwhile: for a fetch that failed (the store was locked, say),
    /// so that what the module shows catches up once it can. The change joins the queue
    /// the feed's changes wait in (merged by entity), so it is never applied beside another
    /// change, nor after a newer one to the same entity.
    public func retry(_ change: Entity) {
        guard let generation = current.withLock({ $0?.generation }) else { return }
        let delay = retryDelay
        Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard let self else { return }
            let changes = current.withLock { $0?.generation == generation ? $0?.changes : nil }
            changes?.subscription.deliver(change)
        }
    }

    /// Ends the subscription.
    public func stop() {
        let wasFollowing = current.withLock { current in
            defer { current = nil }
            current?.changes.end()
            return current != nil
        }
        if wasFollowing { stoppedSinceFollowing.store(true, ordering: .releasing) }
    }

    /// Whether it is following anything.
    public var isFollowing: Bool { current.withLock { $0 != nil } }

    /// How many changes wait to be applied (merged by entity).
    var waitingCount: Int { current.withLock { $0?.changes.subscription.waitingCount ?? 0 } }
}
