import Scenery
import SceneryTesting
import Testing

/// A one-shot signal tests use instead of sleeps: waiters suspend until `open()`.
final class Gate: Sendable {
    /// A gate nobody opens: waiting on it is a backend that never answers, deaf to
    /// cancellation. It lives for the whole run, so the waits it holds are never reported as
    /// leaked continuations (a continuation dropped unresumed is, at once).
    static let neverOpened = Gate()

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
    private let log = AwaitableLog<String>()

    func record(_ entry: String) { log.append(entry) }

    var all: [String] { log.elements }

    /// Waits until the entries satisfy `condition`, woken by each new entry (nothing
    /// polls). A wait for an entry that never comes ends after a minute with an issue that
    /// says what it waited for, rather than hanging until the suite's time limit.
    func wait(
        until condition: @escaping @Sendable ([String]) -> Bool, sourceLocation: SourceLocation = #_sourceLocation
    ) async {
        if await !log.wait(timeout: .seconds(60), until: condition) {
            Issue.record("The journal waited a minute for an entry that never came; it holds \(all.suffix(10))", sourceLocation: sourceLocation)
        }
    }
}
