import Scenery

/// Reads of the same thing asked for at once, made once: the first caller's read runs, and
/// every caller that asks for the same key while it runs gets its answer (or its error).
///
/// When a like reaches a server, every open page showing that blog reads it again, at once;
/// pages with the same viewer (every signed-out page) ask the same question, and one query
/// answers them all. A key must name everything the answer depends on, including how
/// recent it must be: the store puts its change feed's mark in it, so a caller that heard
/// of a change never gets a read that started before that change was published.
///
/// A caller cancelled while it waits still waits for the read (others may need it); the
/// read is bounded by the store's own timeouts.
final class SharedReads<Key: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Running {
        var task: Task<Value, any Error>
        var callers: Int
    }

    private let inFlight = Locked<[Key: Running]>([:])

    /// The answer of `read` for `key`: of a read already running for it, or a new one.
    func value(for key: Key, read: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let task = inFlight.withLock { running in
            if let shared = running[key] {
                running[key]?.callers += 1
                return shared.task
            }
            let task = Task {
                // Whatever the read does, the key is free again when it ends (the lock is held
                // until the task is in the table, so it is there to remove).
                defer { self.inFlight.withLock { running in running[key] = nil } }
                return try await read()
            }
            running[key] = Running(task: task, callers: 1)
            return task
        }
        return try await task.value
    }

    /// How many callers wait for the read running for `key` (0 when none runs).
    func callers(of key: Key) -> Int { inFlight.withLock { $0[key]?.callers ?? 0 } }
}
