import Scenery
import Synchronization

/// A `SceneHost` for tests: it records every event, navigation and update it receives,
/// and answers confirmations with a ``ScriptedConfirmer``.
///
/// ```swift
/// let host = RecordingHost(confirmer: ScriptedConfirmer(answers: [true]))
/// let scene = try await registry.assemble("user-profile", for: context, host: host)
/// await scene.send(Event("user.unfollow", from: "info/follow"))
/// #expect(host.navigations.map(\.scene) == ["follow-list"])
/// ```
public final class RecordingHost: SceneHost, Sendable {
    private struct Log {
        var events: [Event] = []
        var navigations: [NavigationIntent] = []
        var updates: [SceneUpdate] = []
        var waiters: [Int: (condition: @Sendable ([SceneUpdate]) -> Bool, resume: CheckedContinuation<Bool, Never>)] = [:]
        var nextWaiter = 0
        /// Waits whose time ran out before they were registered.
        var expired: Set<Int> = []
    }

    private let log = Mutex(Log())
    /// Answers confirmations and remembers them.
    public let confirmer: ScriptedConfirmer

    /// Creates a host whose confirmations are answered by `confirmer`.
    public init(confirmer: ScriptedConfirmer = .decliningAll) {
        self.confirmer = confirmer
    }

    public func confirm(_ confirmation: Confirmation) async -> Bool {
        confirmer.answer(confirmation)
    }

    public func navigate(to intent: NavigationIntent) async {
        log.withLock { $0.navigations.append(intent) }
    }

    public func receive(_ event: Event) async {
        log.withLock { $0.events.append(event) }
    }

    public func sceneDidUpdate(_ update: SceneUpdate) async {
        let ready = log.withLock { log -> [CheckedContinuation<Bool, Never>] in
            log.updates.append(update)
            let updates = log.updates
            var ready: [CheckedContinuation<Bool, Never>] = []
            for (number, waiter) in log.waiters where waiter.condition(updates) {
                ready.append(waiter.resume)
                log.waiters[number] = nil
            }
            return ready
        }
        for continuation in ready { continuation.resume(returning: true) }
    }

    /// Waits until the updates received so far satisfy `condition` (checked at once, then
    /// on each update), for updates that come from elsewhere, such as another viewer's
    /// change reaching a live scene; `false` if `timeout` passed first.
    ///
    /// The timeout only keeps a broken scene from hanging a suite: the wait ends on the
    /// update, never on the clock, when the scene works.
    ///
    /// ```swift
    /// let arrived = await host.waitForUpdates { updates in updates.contains { $0.module == "blogs" } }
    /// #expect(arrived, "Bob's like reached Carol's page")
    /// ```
    @discardableResult
    public func waitForUpdates(
        timeout: Duration = .seconds(10), until condition: @escaping @Sendable ([SceneUpdate]) -> Bool
    ) async -> Bool {
        let number = log.withLock { log in
            defer { log.nextWaiter += 1 }
            return log.nextWaiter
        }
        let expiry = Task {
            do { try await Task.sleep(for: timeout) } catch { return }  // the update came first
            expire(number)
        }
        defer { expiry.cancel() }
        return await withCheckedContinuation { continuation in
            let now = log.withLock { log -> Bool? in
                if condition(log.updates) { return true }
                if log.expired.remove(number) != nil { return false }
                log.waiters[number] = (condition, continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Ends a wait whose time ran out (or marks it, if it is not registered yet).
    private func expire(_ number: Int) {
        let waiter = log.withLock { log -> CheckedContinuation<Bool, Never>? in
            guard let waiter = log.waiters.removeValue(forKey: number) else {
                log.expired.insert(number)
                return nil
            }
            return waiter.resume
        }
        waiter?.resume(returning: false)
    }

    /// Events that reached the host, in order.
    public var receivedEvents: [Event] { log.withLock { $0.events } }

    /// Navigation intents, in order.
    public var navigations: [NavigationIntent] { log.withLock { $0.navigations } }

    /// Subtree updates, in order.
    public var updates: [SceneUpdate] { log.withLock { $0.updates } }

    /// Confirmations asked, in order.
    public var confirmations: [Confirmation] { confirmer.asked }

    /// Forgets everything recorded so far (confirmations excepted).
    public func reset() {
        log.withLock { log in
            log.events = []
            log.navigations = []
            log.updates = []
        }
    }
}
