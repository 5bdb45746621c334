import ProfileDomain
import Scenery
import Synchronization

/// Subscribes to a change feed and records what arrives, for tests that wait on changes
/// (not on time).
final class ChangeRecorder: Sendable {
    private struct Log {
        var changes: [ProfileChange] = []
        var waiters: [Int: (condition: @Sendable ([ProfileChange]) -> Bool, resume: CheckedContinuation<Bool, Never>)] = [:]
        var next = 0
        var expired: Set<Int> = []
    }

    private let log = Locked(Log())
    private let task = Locked<Task<Void, Never>?>(nil)

    /// Starts recording the changes to `entities`; the subscription is open on return.
    init(_ feed: any ProfileChangeFeed, following entities: Set<ProfileChange>) {
        let stream = feed.changes(to: entities)
        task.withLock { task in
            task = Task { [weak self] in
                for await change in stream { self?.record(change) }
            }
        }
    }

    deinit { task.withLock { $0?.cancel() } }

    /// Everything received so far, in order.
    var changes: [ProfileChange] { log.withLock { $0.changes } }

    private func record(_ change: ProfileChange) {
        let ready = log.withLock { log -> [CheckedContinuation<Bool, Never>] in
            log.changes.append(change)
            var ready: [CheckedContinuation<Bool, Never>] = []
            for (number, waiter) in log.waiters where waiter.condition(log.changes) {
                ready.append(waiter.resume)
                log.waiters[number] = nil
            }
            return ready
        }
        for continuation in ready { continuation.resume(returning: true) }
    }

    /// Waits until the changes received satisfy `condition`; `false` after `timeout`
    /// (which only keeps a broken feed from hanging the suite).
    func wait(timeout: Duration = .seconds(10), until condition: @escaping @Sendable ([ProfileChange]) -> Bool) async -> Bool {
        let number = log.withLock { log in
            defer { log.next += 1 }
            return log.next
        }
        let expiry = Task {
            do { try await Task.sleep(for: timeout) } catch { return }
            let waiter = log.withLock { log -> CheckedContinuation<Bool, Never>? in
                guard let waiter = log.waiters.removeValue(forKey: number) else {
                    log.expired.insert(number)
                    return nil
                }
                return waiter.resume
            }
            waiter?.resume(returning: false)
        }
        defer { expiry.cancel() }
        return await withCheckedContinuation { continuation in
            let now = log.withLock { log -> Bool? in
                if condition(log.changes) { return true }
                if log.expired.remove(number) != nil { return false }
                log.waiters[number] = (condition, continuation)
                return nil
            }
            if let now { continuation.resume(returning: now) }
        }
    }

    /// Waits for `change` to arrive.
    func wait(for change: ProfileChange) async -> Bool { await wait { $0.contains(change) } }
}
