import Scenery
import Synchronization

/// Fans changes out to subscribers by entity: one change wakes only the subscriptions that
/// asked for that entity (and every subscription for ``LiveEntity/everything``).
///
/// A store owns one and calls ``publish(_:)`` after each write commits, in the writing
/// task (so that the writer's own subscription is skipped, see `ChangeSource`), and again
/// for what other processes wrote; modules reach it as a ``ChangeFeed``. A subscriber that
/// is busy loses nothing: what waits for it is merged by entity (see ``ChangeStream``).
/// Nobody following an entity costs nothing when it changes.
///
/// ```swift
/// let hub = ChangeHub<BoardChange>()
/// let changes = hub.changes(to: [.task(7)])
/// hub.publish([.task(7)])  // the first `for await` over `changes` receives it
/// ```
public final class ChangeHub<Entity: LiveEntity>: ChangeFeed {
    private struct Subscriber {
        let entities: Set<Entity>
        let subscription: ChangeStream<Entity>.Subscription
        /// Whose writes it does not receive.
        let writer: ChangeSource?
    }

    private struct State {
        var subscribers: [Int: Subscriber] = [:]
        /// Subscriber numbers by entity, so a change costs its own subscribers only.
        var byEntity: [Entity: Set<Int>] = [:]
        var next = 0
        /// The newest published changes, numbered (for ``hasChanged(_:since:)``).
        var published = 0
        var recent: [(number: Int, change: Entity)] = []
        /// Deliveries waiting for the task that hands them over in waves, oldest first.
        var backlog: [Delivery] = []
        var backlogStart = 0
        var isDraining = false
        /// How many draining tasks were started (for tests).
        var drainsStarted = 0
    }

    private struct Delivery {
        let subscription: ChangeStream<Entity>.Subscription
        let change: Entity
        let origin: ChangeSource?
    }

    /// How many subscribers a change reaches at once: past this many, the hub hands it over
    /// in waves of this size from a task of its own, letting other work (a page's request,
    /// the socket writes of the waves before) run between waves instead of behind one long
    /// loop. Later changes wait behind the waves, so every subscriber still receives the
    /// changes in the order they were published.
    public static var waveSize: Int { 256 }

    /// How many published changes the hub remembers for ``hasChanged(_:since:)``.
    public static var rememberedChanges: Int { 4096 }

    private let state = Locked(State())
    private let fanOutObserver = Locked<(@Sendable (FanOut) -> Void)?>(nil)

    /// Creates a hub with no subscribers.
    public init() {}

    /// How many subscriptions are open.
    public var subscriptionCount: Int { state.withLock { $0.subscribers.count } }

    public func observeFanOuts(_ observer: @escaping @Sendable (FanOut) -> Void) {
        fanOutObserver.withLock { $0 = observer }
    }

    /// How many open subscriptions follow `entity`.
    public func subscriptionCount(for entity: Entity) -> Int { state.withLock { $0.byEntity[entity]?.count ?? 0 } }

    public func changes(to entities: Set<Entity>, ignoringWritesOf writer: ChangeSource?) -> ChangeStream<Entity> {
        let number = state.withLock { state in
            defer { state.next += 1 }
            return state.next
        }
        let subscription = ChangeStream<Entity>.Subscription { [weak self] in self?.unsubscribe(number) }
        state.withLock { state in
            state.subscribers[number] = Subscriber(entities: entities, subscription: subscription, writer: writer)
            for entity in entities { state.byEntity[entity, default: []].insert(number) }
        }
        return ChangeStream(subscription: subscription)
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

    public func hasChanged(_ entities: Set<Entity>, since mark: Int) -> Bool {
        state.withLock { state in
            guard mark < state.published else { return false }
            // Forgotten since: it may have changed.
            guard let oldest = state.recent.first?.number, oldest <= mark + 1 else { return true }
            // Newest first, back to the mark only: a module asks right after it loaded, so
            // this reads the few changes since, not the whole history (under the hub's lock).
            for (number, change) in state.recent.reversed() {
                guard number > mark else { break }
                if change == Entity.everything || entities.contains(change) { return true }
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
        let subscriptions = state.withLock { state -> [ChangeStream<Entity>.Subscription] in
            state.published += 1
            state.recent.append((state.published, Entity.everything))
            if state.recent.count > 2 * Self.rememberedChanges { state.recent.removeFirst(state.recent.count - Self.rememberedChanges) }
            return state.subscribers.values.map(\.subscription).shuffled()
        }
        var start = 0
        while start < subscriptions.count {
            if start > 0 { await pause() }
            for subscription in subscriptions[start..<min(start + max(1, waveSize), subscriptions.count)] { subscription.deliver(Entity.everything) }
            start += max(1, waveSize)
        }
    }

    /// Hands each change to the subscribers of its entity (all of them for
    /// ``LiveEntity/everything``), except the subscription of the writer making the current
    /// task's write (`WriteContext.writer`): it already shows what it wrote.
    ///
    /// A change to at most ``waveSize`` subscribers is handed over before this returns; one
    /// to more (a like shown on a thousand open pages) in waves, by a task of the hub's, and
    /// changes published while waves remain wait behind them, so that each subscriber
    /// receives the changes in the order they were published.
    public func publish(_ changes: some Sequence<Entity>) {
        let writer = WriteContext.current.writer
        // The page whose person's action this write is: the change reaches subscribers
        // under it, so that page does not announce its own doing (see ChangeSource).
        let origin = WriteContext.current.page
        let observer = fanOutObserver.withLock { $0 }
        let started = observer == nil ? nil : ContinuousClock.now
        let (now, count, startsDraining) = state.withLock { state -> ([Delivery], Int, Bool) in
            var deliveries: [Delivery] = []
            var count = 0
            for change in changes {
                count += 1
                state.published += 1
                state.recent.append((state.published, change))
                let isEverything = change == Entity.everything
                let numbers = isEverything ? Set(state.subscribers.keys) : state.byEntity[change] ?? []
                for number in numbers {
                    guard let subscriber = state.subscribers[number] else { continue }
                    if !isEverything, let writer, subscriber.writer == writer { continue }
                    deliveries.append(Delivery(subscription: subscriber.subscription, change: change, origin: origin))
                }
            }
            if state.recent.count > 2 * Self.rememberedChanges { state.recent.removeFirst(state.recent.count - Self.rememberedChanges) }
            // Few subscribers and nothing waiting: handed over now, in this task.
            guard state.isDraining || deliveries.count > Self.waveSize else { return (deliveries, count, false) }
            state.backlog += deliveries
            let startsDraining = !state.isDraining
            if startsDraining { state.drainsStarted += 1 }
            state.isDraining = true
            return ([], count, startsDraining)
        }
        for delivery in now { delivery.subscription.deliver(delivery.change, origin: delivery.origin) }
        if let observer, let started, !now.isEmpty {
            observer(FanOut(changes: count, deliveries: now.count, duration: .now - started, isInWaves: false))
        }
        if startsDraining {
            Task(priority: .utility) { [weak self] in await self?.drainBacklog() }
        }
    }

    /// Hands the backlog over a wave at a time, yielding between waves, until it is empty;
    /// reports what it handed over as one fan-out.
    private func drainBacklog() async {
        let started = ContinuousClock.now
        let isObserved = fanOutObserver.withLock { $0 != nil }
        var delivered = 0
        var changes = Set<Entity>()
        while true {
            let wave = state.withLock { state -> [Delivery] in
                let end = min(state.backlogStart + Self.waveSize, state.backlog.count)
                let wave = Array(state.backlog[state.backlogStart..<end])
                state.backlogStart = end
                if state.backlogStart == state.backlog.count {
                    state.backlog.removeAll()
                    state.backlogStart = 0
                    if wave.isEmpty { state.isDraining = false }
                }
                return wave
            }
            if wave.isEmpty {
                if let observer = fanOutObserver.withLock({ $0 }), delivered > 0 {
                    observer(FanOut(changes: changes.count, deliveries: delivered, duration: .now - started, isInWaves: true))
                }
                return
            }
            for delivery in wave { delivery.subscription.deliver(delivery.change, origin: delivery.origin) }
            delivered += wave.count
            if isObserved { for delivery in wave { changes.insert(delivery.change) } }
            await Task.yield()
        }
    }

    /// How many deliveries wait to be handed over in waves (for tests).
    var waitingDeliveries: Int { state.withLock { $0.backlog.count - $0.backlogStart } }

    /// How many times a change was handed to a draining task instead of delivered at once
    /// (for tests: the task may have finished by the time a test looks at the backlog).
    var drainsStarted: Int { state.withLock { $0.drainsStarted } }
}
