import Synchronization

/// A one-shot signal tests use instead of sleeps: waiters suspend until `open()`.
final class Gate: Sendable {
    private struct State {
        var isOpen = false
        var waiters: [CheckedContinuation<Void, Never>] = []
    }

    private let state = Mutex(State())

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
    private let arrived = Mutex(0)
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
    private let entries = Mutex<[String]>([])
    func record(_ entry: String) { entries.withLock { $0.append(entry) } }
    var all: [String] { entries.withLock { $0 } }
}
