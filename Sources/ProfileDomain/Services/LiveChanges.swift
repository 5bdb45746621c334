import Scenery
import Synchronization

/// A module's subscription to the changes of what it shows, held while it is visible.
///
/// A module starts it in `appear()` with the entities it shows (``follow(_:_:)``), starts it
/// again when those change (a new page of rows), and ends it in `disappear()` (``stop()``):
/// a hidden tab, a row window scrolled away or a page that was left costs nothing per
/// change. Changes reach `apply` one at a time, in order. When it follows again after a
/// stop, ``follow(_:_:)`` says so, and the module fetches what it shows again.
///
/// ```swift
/// public func appear() async {
///     let missed = live.follow([.profile(user)]) { [weak self] _ in await self?.reload() }
///     if missed { await reload() }
/// }
/// public func disappear() async { live.stop() }
/// ```
public final class LiveChanges: Sendable {
    private struct Following {
        let entities: Set<ProfileChange>
        let changes: ProfileChanges
        let apply: @Sendable (ProfileChange) async -> Void
        /// Which `follow` this is: a retry of an earlier one is dropped.
        let generation: Int

        /// Unsubscribes at once: the feed forgets it, and a change being applied is the last.
        func end() {
            changes.end()
        }
    }

    private let feed: (any ProfileChangeFeed)?
    private let current = Locked<Following?>(nil)
    private let generations = Atomic<Int>(0)
    private let stoppedSinceFollowing = Atomic<Bool>(false)
    /// The feed's position when the module was made (before its first load), and whether it
    /// has followed since: a module first shown later (a tab) may have missed changes.
    private let markAtStart: Int?
    private let hasFollowed = Atomic<Bool>(false)
    /// How long ``retry(_:)`` waits before handing a change to the module again.
    public let retryDelay: Duration

    /// A subscription through `feed`; with no feed, ``follow(_:_:)`` does nothing.
    /// `retryDelay` is how long a change whose fetch failed waits before it is tried again.
    public init(_ feed: (any ProfileChangeFeed)?, retryDelay: Duration = .seconds(2)) {
        self.feed = feed
        self.retryDelay = retryDelay
        markAtStart = feed?.changeMark
    }

    deinit { current.withLock { $0?.end() } }

    /// What the subscription follows now (empty when stopped).
    public var entities: Set<ProfileChange> { current.withLock { $0?.entities ?? [] } }

    /// Follows `entities` from now on, replacing what was followed (nothing happens if it is
    /// the same set). The subscription is open when this returns.
    ///
    /// Returns whether changes may have been missed: the subscription was stopped since it
    /// last followed (the module was hidden), or, at the first follow, what it follows
    /// changed since the module was made (it loaded in a tab not shown until now). The
    /// module then fetches what it shows again, so that a tab selected, or a page gone back
    /// to, shows what is true now.
    @discardableResult
    public func follow(_ entities: Set<ProfileChange>, _ apply: @escaping @Sendable (ProfileChange) async -> Void) -> Bool {
        guard let feed else { return false }
        var missed = stoppedSinceFollowing.exchange(false, ordering: .acquiringAndReleasing)
        if !hasFollowed.exchange(true, ordering: .acquiringAndReleasing), let markAtStart {
            missed = missed || feed.hasChanged(entities, since: markAtStart)
        }
        current.withLock { current in
            if current?.entities == entities { return }
            current?.end()
            // No task waits for changes: one runs while changes wait to be applied, so a page
            // that shows something nobody changes holds no task for it.
            let changes = feed.changes(to: entities)
            changes.subscription.handle(priority: .utility, apply)
            let generation = generations.add(1, ordering: .relaxed).newValue
            current = Following(entities: entities, changes: changes, apply: apply, generation: generation)
        }
        return missed
    }

    /// Hands `change` to the module again after ``retryDelay``, unless the subscription
    /// stopped or changed meanwhile: for a fetch that failed (the store was locked, say),
    /// so that what the module shows catches up once it can.
    public func retry(_ change: ProfileChange) {
        guard let (apply, generation) = current.withLock({ current in current.map { ($0.apply, $0.generation) } }) else { return }
        let delay = retryDelay
        Task { [weak self] in
            try? await Task.sleep(for: delay)
            guard let self, current.withLock({ $0?.generation == generation }) else { return }
            await apply(change)
        }
    }

    /// What a module shows when it could not fetch what changed: what it shows may be out
    /// of date, why, and that it tries again (with ``retry(_:)``).
    public static func staleNotice(_ error: any Error) -> String {
        "Couldn't show the latest: \(SceneryError.messageForViewers(of: error)) Trying again."
    }

    /// Ends the subscription.
    public func stop() {
        let wasFollowing = current.withLock { current in
            defer { current = nil }
            current?.end()
            return current != nil
        }
        if wasFollowing { stoppedSinceFollowing.store(true, ordering: .releasing) }
    }

    /// Whether it is following anything.
    public var isFollowing: Bool { current.withLock { $0 != nil } }
}
