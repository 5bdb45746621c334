import Scenery

/// A list that grows as things arrive from elsewhere (a scene's updates, a feed's changes),
/// and a way to wait until what arrived satisfies a condition: the wait ends on the arrival
/// that satisfies it, never on the clock, when things work.
///
/// ```swift
/// let changes = AwaitableLog<ProfileChange>()
/// Task { for await change in feed.changes(to: [.blog(26)]) { changes.append(change) } }
/// #expect(await changes.wait { $0.contains(.blog(26)) })
/// ```
public final class AwaitableLog<Element: Sendable>: Sendable {
    private struct State {
        var elements: [Element] = []
        var waiters: [Int: (condition: @Sendable ([Element]) -> Bool, resume: CheckedContinuation<Bool, Never>)] = [:]
        var nextWaiter = 0
        /// Waits whose time ran out before they were registered.
        var expired: Set<Int> = []
    }

    private let state = Locked(State())

    /// An empty log.
    public init() {}

    /// Everything that arrived, in order.
    public var elements: [Element] { state.withLock { $0.elements } }

    /// Adds `element` and ends the waits its arrival satisfies.
    public func append(_ element: Element) {
        let ready = state.withLock { state -> [CheckedContinuation<Bool, Never>] in
            state.elements.append(element)
            var ready: [CheckedContinuation<Bool, Never>] = []
            for (number, waiter) in state.waiters where waiter.condition(state.elements) {
                ready.append(waiter.resume)
                state.waiters[number] = nil
            }
            return ready
        }
        for continuation in ready { continuation.resume(returning: true) }
    }

    /// Forgets what arrived (waits go on).
    public func removeAll() { state.withLock { $0.elements = [] } }

    /// Waits until what arrived satisfies `condition` (checked at once, then at each
    /// arrival); `false` if `timeout` passed first. The timeout only keeps a broken producer
    /// from hanging a suite.
    @discardableResult
    public func wait(timeout: Duration = .seconds(10), until condition: @escaping @Sendable ([Element]) -> Bool) async -> Bool {
        let number = state.withLock { state in
            defer { state.nextWaiter += 1 }
            return state.nextWaiter
        }
        let expiry = Task {
            do { try await Task.sleep(for: timeout) } catch { return }  // it arrived first
            expire(number)
        }
        defer { expiry.cancel() }
        return await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool? in
                if condition(state.elements) { return true }
                if state.expired.remove(number) != nil { return false }
                state.waiters[number] = (condition, continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Ends a wait whose time ran out (or marks it, if it is not registered yet).
    private func expire(_ number: Int) {
        let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
            guard let waiter = state.waiters.removeValue(forKey: number) else {
                state.expired.insert(number)
                return nil
            }
            return waiter.resume
        }
        waiter?.resume(returning: false)
    }
}
