import Scenery

/// Reads of the same thing asked for at once, made once: the first caller's read runs, and
/// every caller that asks the same question at the same mark while it runs gets its answer
/// (or its error).
///
/// When a like reaches a server, every open page showing that blog reads it again, at once;
/// pages with the same viewer (every signed-out page) ask the same question, and one query
/// answers them all. A question must name everything its answer depends on (the viewer
/// too); the mark says how recent the answer must be: the store passes its change feed's
/// position, so a caller that heard of a change never gets a read that started before the
/// change was published.
///
/// A caller cancelled while it waits still waits for the read (others may need it); the
/// read is bounded by the store's own timeouts.
///
/// ```swift
/// let reads = SharedReads<Int, BoardTask>()
/// let task = try await reads.value(of: 7, at: feed.changeMark ?? 0) { try await board.task(7) }
/// ```
public final class SharedReads<Question: Hashable & Sendable, Value: Sendable>: Sendable {
    /// No read running.
    public init() {}

    private struct Key: Hashable {
        var question: Question
        var mark: Int
    }

    private struct Running {
        var task: Task<Value, any Error>
        var callers: Int
    }

    private let inFlight = Locked<[Key: Running]>([:])

    /// The answer of `read` to `question` at `mark`: of a read already running for both, or
    /// of a new one.
    public func value(of question: Question, at mark: Int, read: @escaping @Sendable () async throws -> Value) async throws -> Value {
        let key = Key(question: question, mark: mark)
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

    /// How many callers wait for the read running for `question` at `mark` (0 when none runs).
    public func callers(of question: Question, at mark: Int) -> Int {
        inFlight.withLock { $0[Key(question: question, mark: mark)]?.callers ?? 0 }
    }
}
