import Synchronization

/// A module's subscription to the changes of what it shows, held while it is visible.
///
/// A module starts it in `appear()` with the entities it shows (``follow(_:_:)``), starts it
/// again when those change (a new page of rows), and ends it in `disappear()` (``stop()``):
/// a hidden tab, a row window scrolled away or a page that was left costs nothing per
/// change. Changes reach `apply` one at a time, in order.
///
/// ```swift
/// public func appear() async {
///     live.follow([.profile(user)]) { [weak self] _ in await self?.reload() }
/// }
/// public func disappear() async { live.stop() }
/// ```
public final class LiveChanges: Sendable {
    private let feed: (any ProfileChangeFeed)?
    private let current = Mutex<(entities: Set<ProfileChange>, task: Task<Void, Never>)?>(nil)

    /// A subscription through `feed`; with no feed, ``follow(_:_:)`` does nothing.
    public init(_ feed: (any ProfileChangeFeed)?) {
        self.feed = feed
    }

    deinit { current.withLock { $0?.task.cancel() } }

    /// What the subscription follows now (empty when stopped).
    public var entities: Set<ProfileChange> { current.withLock { $0?.entities ?? [] } }

    /// Follows `entities` from now on, replacing what was followed (nothing happens if it is
    /// the same set). The subscription is open when this returns.
    public func follow(_ entities: Set<ProfileChange>, _ apply: @escaping @Sendable (ProfileChange) async -> Void) {
        guard let feed else { return }
        current.withLock { current in
            if current?.entities == entities { return }
            current?.task.cancel()
            let changes = feed.changes(to: entities)
            let task = Task {
                for await change in changes {
                    await apply(change)
                }
            }
            current = (entities, task)
        }
    }

    /// Ends the subscription.
    public func stop() {
        current.withLock { current in
            current?.task.cancel()
            current = nil
        }
    }

    /// Whether it is following anything.
    public var isFollowing: Bool { current.withLock { $0 != nil } }
}
