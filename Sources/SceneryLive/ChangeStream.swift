import Scenery
import Synchronization

/// The changes a subscriber has not handled yet, as an asynchronous sequence: what
/// ``ChangeFeed/changes(to:ignoringWritesOf:)`` returns.
///
/// A subscriber that falls behind never loses a change and never handles one twice for
/// nothing: changes waiting for it are merged by entity (blog 26 liked ten times while the
/// subscriber fetched is one `blog 26`), and ``LiveEntity/everything`` replaces whatever
/// waits. So what waits is bounded by what the subscriber follows, whatever the rate of
/// writes, and the subscriber fetches each entity once per round.
///
/// One task iterates it. The subscription ends when that task is cancelled (or the feed
/// finishes it); the feed then forgets the subscriber.
///
/// ```swift
/// for await change in feed.changes(to: [.task(7)]) {
///     await refetch(change)
/// }
/// ```
public struct ChangeStream<Entity: LiveEntity>: AsyncSequence, Sendable {
    public typealias Element = Entity

    let subscription: Subscription

    public func makeAsyncIterator() -> Iterator { Iterator(subscription: subscription) }

    /// Ends the subscription now: the feed forgets it at once, and an iteration waiting for
    /// a change ends (cancelling the iterating task does the same, once it next waits).
    public func end() { subscription.end() }

    /// Waits for the next change to handle.
    public struct Iterator: AsyncIteratorProtocol {
        let subscription: Subscription

        /// The oldest change waiting (merged by entity), or `nil` once the subscription ended.
        public mutating func next() async -> Entity? { await subscription.next() }
    }

    /// Changes waiting for one subscriber, and the subscriber waiting for them.
    final class Subscription: Sendable {
        private struct State {
            var waiting: [Entity] = []
            /// The page whose action made each waiting change, by position in `waiting`
            /// (`nil`: unknown, or changes of several pages merged into one).
            var origins: [ChangeSource?] = []
            var waiter: CheckedContinuation<Entity?, Never>?
            var hasEnded = false
            /// Who takes the changes when nothing iterates (``handle(priority:_:)``), and
            /// whether a task is handing them over now.
            var handler: Handler?
            var isDraining = false
        }

        private struct Handler {
            let priority: TaskPriority
            let apply: @Sendable (Entity) async -> Void
        }

        private let state = Locked(State())
        /// Called once when the subscription ends (the feed forgets it).
        private let onEnd: @Sendable () -> Void

        init(onEnd: @escaping @Sendable () -> Void) {
            self.onEnd = onEnd
        }

        /// Hands a change to the subscriber, or keeps it (merged) until it asks. `origin` is
        /// the page whose person's action made it (`ChangeSource`); a handler applies the
        /// change under it.
        func deliver(_ change: Entity, origin: ChangeSource? = nil) {
            let waiter = state.withLock { state -> CheckedContinuation<Entity?, Never>? in
                guard !state.hasEnded else { return nil }
                if let waiter = state.waiter {
                    state.waiter = nil
                    return waiter
                }
                if change == Entity.everything {
                    state.waiting = [Entity.everything]
                    state.origins = [nil]
                } else if let index = state.waiting.firstIndex(of: change) {
                    // Merged: the change of one page still, or of several (unknown).
                    if state.origins[index] != origin { state.origins[index] = nil }
                } else if !state.waiting.contains(Entity.everything) {
                    state.waiting.append(change)
                    state.origins.append(origin)
                }
                return nil
            }
            waiter?.resume(returning: change)
            startDrainingIfNeeded()
        }

        /// Hands every change to `apply`, one at a time and in order, from a task that runs
        /// only while changes wait: a subscriber that is not iterating holds no task while
        /// nothing changes. Use it instead of iterating, not beside it.
        func handle(priority: TaskPriority, _ apply: @escaping @Sendable (Entity) async -> Void) {
            state.withLock { $0.handler = Handler(priority: priority, apply: apply) }
            startDrainingIfNeeded()
        }

        private func startDrainingIfNeeded() {
            let handler = state.withLock { state -> Handler? in
                guard let handler = state.handler, !state.isDraining, !state.hasEnded, !state.waiting.isEmpty else { return nil }
                state.isDraining = true
                return handler
            }
            guard let handler else { return }
            // Detached: the drain serves the subscriber, not the writer whose change woke it,
            // so it takes none of that task's task-local values (nor their copying).
            Task.detached(priority: handler.priority) {
                while let (change, origin) = self.takeForHandler() {
                    await WriteContext.current.onPage(origin).run { await handler.apply(change) }
                }
            }
        }

        /// The next change for the handler and its origin, or `nil` (and no task draining)
        /// when none waits.
        private func takeForHandler() -> (Entity, ChangeSource?)? {
            state.withLock { state in
                guard !state.hasEnded, !state.waiting.isEmpty else {
                    state.isDraining = false
                    return nil
                }
                return (state.waiting.removeFirst(), state.origins.removeFirst())
            }
        }

        /// How many changes wait (at most one per entity followed, plus `everything`).
        var waitingCount: Int { state.withLock { $0.waiting.count } }

        func next() async -> Entity? {
            await withTaskCancellationHandler {
                await withCheckedContinuation { continuation in
                    let ready = state.withLock { state -> Entity?? in
                        if state.hasEnded { return .some(nil) }
                        if !state.waiting.isEmpty {
                            state.origins.removeFirst()
                            return .some(state.waiting.removeFirst())
                        }
                        state.waiter = continuation
                        return .none
                    }
                    if let ready { continuation.resume(returning: ready) }
                }
            } onCancel: {
                end()
            }
        }

        /// Ends the subscription: a waiting `next()` returns `nil`, and the feed forgets it.
        func end() {
            let (waiter, ended) = state.withLock { state -> (CheckedContinuation<Entity?, Never>?, Bool) in
                guard !state.hasEnded else { return (nil, false) }
                state.hasEnded = true
                state.waiting = []
                state.origins = []
                state.handler = nil
                defer { state.waiter = nil }
                return (state.waiter, true)
            }
            waiter?.resume(returning: nil)
            if ended { onEnd() }
        }
    }
}
