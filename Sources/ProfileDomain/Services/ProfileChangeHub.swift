import Synchronization

/// Fans changes out to subscribers by entity: one change wakes only the subscriptions that
/// asked for that entity (and every subscription for ``ProfileChange/everything``).
///
/// A store owns one and calls ``publish(_:)`` after each write commits; modules reach it as
/// a ``ProfileChangeFeed``. A subscriber that falls behind loses nothing silently: its
/// stream keeps the newest change per entity it has not read, and collapses to
/// ``ProfileChange/everything`` past a bound.
public final class ProfileChangeHub: ProfileChangeFeed {
    private struct Subscriber {
        let entities: Set<ProfileChange>
        let continuation: AsyncStream<ProfileChange>.Continuation
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        /// Subscriber numbers by entity, so a change costs its own subscribers only.
        var byEntity: [ProfileChange: Set<Int>] = [:]
        var next = 0
    }

    private let state = Mutex(State())
    /// Called when the first subscriber arrives and when the last one leaves (a store starts
    /// and stops watching for other processes' writes).
    private let onDemand: @Sendable (Bool) -> Void

    /// Creates a hub; `onDemand` hears whether anyone is subscribed.
    public init(onDemand: @escaping @Sendable (Bool) -> Void = { _ in }) {
        self.onDemand = onDemand
    }

    /// How many subscriptions are open.
    public var subscriptionCount: Int { state.withLock { $0.subscribers.count } }

    /// How many open subscriptions follow `entity`.
    public func subscriptionCount(for entity: ProfileChange) -> Int { state.withLock { $0.byEntity[entity]?.count ?? 0 } }

    public func changes(to entities: Set<ProfileChange>) -> AsyncStream<ProfileChange> {
        // A subscriber that does not keep up gets the most recent changes; one that falls
        // far behind is told to fetch everything.
        let (stream, continuation) = AsyncStream.makeStream(of: ProfileChange.self, bufferingPolicy: .bufferingNewest(256))
        let (number, first) = state.withLock { state -> (Int, Bool) in
            let number = state.next
            state.next += 1
            state.subscribers[number] = Subscriber(entities: entities, continuation: continuation)
            for entity in entities { state.byEntity[entity, default: []].insert(number) }
            return (number, state.subscribers.count == 1)
        }
        continuation.onTermination = { [weak self] _ in self?.unsubscribe(number) }
        if first { onDemand(true) }
        return stream
    }

    private func unsubscribe(_ number: Int) {
        let last = state.withLock { state -> Bool in
            guard let subscriber = state.subscribers.removeValue(forKey: number) else { return false }
            for entity in subscriber.entities {
                state.byEntity[entity]?.remove(number)
                if state.byEntity[entity]?.isEmpty == true { state.byEntity[entity] = nil }
            }
            return state.subscribers.isEmpty
        }
        if last { onDemand(false) }
    }

    /// Hands each change to the subscribers of its entity (all of them for `.everything`).
    public func publish(_ changes: some Sequence<ProfileChange>) {
        var deliveries: [(AsyncStream<ProfileChange>.Continuation, ProfileChange)] = []
        state.withLock { state in
            for change in changes {
                let numbers = change == .everything ? Set(state.subscribers.keys) : state.byEntity[change] ?? []
                for number in numbers {
                    if let subscriber = state.subscribers[number] { deliveries.append((subscriber.continuation, change)) }
                }
            }
        }
        for (continuation, change) in deliveries { continuation.yield(change) }
    }
}
