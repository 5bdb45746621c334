import Scenery

/// Reads of the same thing made once: every caller that asks the same question at the same
/// mark gets the answer of one read (or its error), whether it asks while the read runs or,
/// when answers are kept, after it ended.
///
/// When a like reaches a server, every open page showing that blog reads it again;
/// pages with the same viewer (every signed-out page) ask the same question, and one query
/// answers them all. A question must name everything its answer depends on (the viewer
/// too); the mark says how recent the answer must be: the store passes its change feed's
/// position, so a caller that heard of a change never gets a read that started before the
/// change was published.
///
/// **Kept answers.** Made with `keeping: n`, the table keeps up to `n` answers after their
/// reads end, for the mark their reads began at (the latest mark's only): pages that ask one after another, as a
/// fan-out's pages do, make one read per change, not one per page. Keep answers only while
/// the mark moves with every change to what the reads read (a store's feed that is
/// listening, its own writes published as they commit): say so with `keep` on each call.
///
/// A caller cancelled while it waits still waits for the read (others may need it); the
/// read is bounded by the store's own timeouts.
///
/// ```swift
/// let reads = SharedReads<Int, BoardTask>(keeping: 1_024)
/// let task = try await reads.value(of: 7, at: feed.changeMark ?? 0, keep: store.isListening) {
///     try await board.task(7)
/// }
/// ```
public final class SharedReads<Question: Hashable & Sendable, Value: Sendable>: Sendable {
    /// No read running, and no answer kept.
    ///
    /// - Parameter capacity: How many answers to keep after their reads end, all of the
    ///   latest mark (0: none; only reads running at once are shared). A read's answer past
    ///   it is not kept.
    public init(keeping capacity: Int = 0) {
        self.capacity = max(0, capacity)
    }

    private struct Key: Hashable {
        var question: Question
        var mark: Int
    }

    private struct Running {
        var task: Task<Value, any Error>
        var callers: Int
    }

    private struct State {
        var running: [Key: Running] = [:]
        /// Answers kept, all of the mark ``keptMark``.
        var kept: [Question: Value] = [:]
        var keptMark = Int.min
    }

    private let capacity: Int
    private let state = Locked(State())

    /// The answer of `read` to `question` at `mark`: an answer kept for both, of a read
    /// already running for both, or of a new one.
    ///
    /// - Parameters:
    ///   - question: What is read: everything the answer depends on (the viewer too).
    ///   - mark: How recent the answer must be: the change feed's position now.
    ///   - keep: Whether an answer kept at `mark` may be given, and this read's answer kept
    ///     (when the table keeps answers): pass whether the mark moves with every change now
    ///     (the store is listening).
    ///   - read: The read, run when no answer is kept and no read for both runs.
    public func value(
        of question: Question, at mark: Int, keep: Bool = true, read: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        let key = Key(question: question, mark: mark)
        let keeps = keep && capacity > 0
        let lookup = state.withLock { state -> Lookup in
            if keeps, mark == state.keptMark, let kept = state.kept[question] { return .kept(kept) }
            if let shared = state.running[key] {
                state.running[key]?.callers += 1
                return .running(shared.task)
            }
            let task = Task {
                // Whatever the read does, the key is free again when it ends (the lock is held
                // until the task is in the table, so it is there to remove).
                do {
                    let value = try await read()
                    self.state.withLock { state in
                        state.running[key] = nil
                        if keeps { Self.keep(value, for: question, at: mark, in: &state, capacity: self.capacity) }
                    }
                    return value
                } catch {
                    self.state.withLock { state in state.running[key] = nil }
                    throw error
                }
            }
            state.running[key] = Running(task: task, callers: 1)
            return .running(task)
        }
        switch lookup {
        case .kept(let value): return value
        case .running(let task): return try await task.value
        }
    }

    /// What a caller finds: an answer kept, or a read running (its own or another's).
    private enum Lookup {
        case kept(Value)
        case running(Task<Value, any Error>)
    }

    /// How many callers wait for the read running for `question` at `mark` (0 when none runs).
    public func callers(of question: Question, at mark: Int) -> Int {
        state.withLock { $0.running[Key(question: question, mark: mark)]?.callers ?? 0 }
    }

    /// How many answers are kept now (for tests).
    package var keptAnswers: Int { state.withLock { $0.kept.count } }

    /// Keeps `value` as the answer to `question` at `mark`. Answers are kept for the latest
    /// mark only (callers ask at the feed's current mark: an older one's answer is never
    /// given again), up to the capacity.
    private static func keep(_ value: Value, for question: Question, at mark: Int, in state: inout State, capacity: Int) {
        if mark > state.keptMark {
            state.kept.removeAll(keepingCapacity: true)
            state.keptMark = mark
        }
        guard mark == state.keptMark, state.kept[question] != nil || state.kept.count < capacity else { return }
        state.kept[question] = value
    }
}
