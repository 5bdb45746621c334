import Scenery
import Synchronization

/// Fans changes out to subscribers by entity: one change wakes only the subscriptions that
/// asked for that entity (and every subscription for ``ProfileChange/everything``).
///
/// A store owns one and calls ``publish(_:)`` after each write commits; modules reach it as
/// a ``ProfileChangeFeed``. A subscriber that is busy loses nothing: what waits for it is
/// merged by entity (see ``ProfileChanges``).
///
/// ```swift
/// let hub = ProfileChangeHub()
/// let changes = hub.changes(to: [.blog(26)])
/// hub.publish([.blog(26)])  // the first `for await` over `changes` receives it
/// ```
public final class ProfileChangeHub: ProfileChangeFeed {
    private struct Subscriber {
        let entities: Set<ProfileChange>
        let subscription: ProfileChanges.Subscription
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        /// Subscriber numbers by entity, so a change costs its own subscribers only.
        var byEntity: [ProfileChange: Set<Int>] = [:]
        var next = 0
        /// The newest published changes, numbered (for ``hasChanged(_:since:)``).
        var published = 0
        var recent: [(number: Int, change: ProfileChange)] = []
    }

    /// How many published changes the hub remembers for ``hasChanged(_:since:)``.
    public static let rememberedChanges = 4096

    private let state = Locked(State())

    /// Creates a hub with no subscribers.
    public init() {}

    /// How many subscriptions are open.
    public var subscriptionCount: Int { state.withLock { $0.subscribers.count } }

    /// How many open subscriptions follow `entity`.
    public func subscriptionCount(for entity: ProfileChange) -> Int { state.withLock { $0.byEntity[entity]?.count ?? 0 } }

    public func changes(to entities: Set<ProfileChange>) -> ProfileChanges {
        let number = state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        let subscription = ProfileChanges.Subscription { [weak self] in self?.unsubscribe(number) }
        state.withLock { state in
            state.subscribers[number] = Subscriber(entities: entities, subscription: subscription)
            for entity in entities { state.byEntity[entity, default: []].insert(number) }
        }
        return ProfileChanges(subscription: subscription)
    }

    private func unsubscribe(_ number: Int) {
        state.withLock { state in
            guard let subscriber = state.subscribers.removeValue(forKey: number) else { return }
            for entity in subscriber.entities {
                state.byEntity[entity]?.remove(number)
                if state.byEntity[entity]?.isEmpty == true { state.byEntity[entity] = nil }
            }
        }
    }

    public var changeMark: Int? { state.withLock { $0.published } }

    public func hasChanged(_ entities: Set<ProfileChange>, since mark: Int) -> Bool {
        state.withLock { state in
            guard mark < state.published else { return false }
            // Forgotten since: it may have changed.
            guard let oldest = state.recent.first?.number, oldest <= mark + 1 else { return true }
            // Newest first, back to the mark only: a module asks right after it loaded, so
            // this reads the few changes since, not the whole history (under the hub's lock).
            for (number, change) in state.recent.reversed() {
                guard number > mark else { break }
                if change == .everything || entities.contains(change) { return true }
            }
            return false
        }
    }

    /// Tells every subscriber that anything may have changed, in waves of `waveSize`
    /// subscribers with `pause` between waves, rather than all at once: after a store's
    /// listener reconnects, every page on the server would fetch what it shows in the same
    /// instant. The change counts as published at once (``hasChanged(_:since:)`` says so).
    ///
    /// ```swift
    /// await hub.publishEverything(inWavesOf: 100) { try? await Task.sleep(for: .milliseconds(50)) }
    /// ```
    public func publishEverything(inWavesOf waveSize: Int, pause: @Sendable () async -> Void) async {
        let subscriptions = state.withLock { state -> [ProfileChanges.Subscription] in
            state.published += 1
            state.recent.append((state.published, .everything))
            if state.recent.count > 2 * Self.rememberedChanges { state.recent.removeFirst(state.recent.count - Self.rememberedChanges) }
            return state.subscribers.values.map(\.subscription).shuffled()
        }
        var start = 0
        while start < subscriptions.count {
            if start > 0 { await pause() }
            for subscription in subscriptions[start..<min(start + max(1, waveSize), subscriptions.count)] { subscription.deliver(.everything) }
            start += max(1, waveSize)
        }
    }

    /// Hands each change to the subscribers of its entity (all of them for `.everything`).
    public func publish(_ changes: some Sequence<ProfileChange>) {
        var deliveries: [(ProfileChanges.Subscription, ProfileChange)] = []
        state.withLock { state in
            for change in changes {
                state.published += 1
                state.recent.append((state.published, change))
                let numbers = change == .everything ? Set(state.subscribers.keys) : state.byEntity[change] ?? []
                for number in numbers {
                    if let subscriber = state.subscribers[number] { deliveries.append((subscriber.subscription, change)) }
                }
            }
            if state.recent.count > 2 * Self.rememberedChanges { state.recent.removeFirst(state.recent.count - Self.rememberedChanges) }
        }
        for (subscription, change) in deliveries { subscription.deliver(change) }
    }
}
