import Scenery

/// A one-shot signal tests use instead of sleeps: waiters suspend until `open()`.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Locked(State())

    func open() {
        let waiters = state.withLock { state in
            state.isOpen = true
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }

    func wait() async {
        await withCheckedContinuation { continuation in
            let resumeNow = state.withLock { state in
                if state.isOpen { return true }
                state.waiters.append(continuation)
                return false
            }
            if resumeNow { continuation.resume() }
        }
    }
}

/// Counts arrivals and opens its gate when `count` have arrived: proves that `count`
/// tasks were in flight at the same time.
final class Rendezvous: Sendable {
    private let arrived = Locked(0)
    private let gate = Gate()
    let count: Int

    init(count: Int) { self.count = count }

    func arriveAndWait() async {
        let all = arrived.withLock { value in
            value += 1
            return value == count
        }
        if all { gate.open() }
        await gate.wait()
    }
}

/// A thread-safe log of strings, for ordering assertions.
final class Journal: Sendable {
    private struct State {
        var entries: [String] = []
        var waiters: [(condition: @Sendable ([String]) -> Bool, resume: CheckedContinuation<Void, Never>)] = []
    }

    private let state = Locked(State())

    func record(_ entry: String) {
        let ready = state.withLock { state in
            state.entries.append(entry)
            var ready: [CheckedContinuation<Void, Never>] = []
            let entries = state.entries
            state.waiters.removeAll { waiter in
                guard waiter.condition(entries) else { return false }
                ready.append(waiter.resume)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }

    var all: [String] { state.withLock { $0.entries } }

    /// Waits until the entries satisfy `condition`, woken by each new entry (nothing
    /// polls; the suite's time limit bounds a wait for an entry that never comes).
    func wait(until condition: @escaping @Sendable ([String]) -> Bool) async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state in
                if condition(state.entries) { return true }
                state.waiters.append((condition, continuation))
                return false
            }
            if now { continuation.resume() }
        }
    }
}
