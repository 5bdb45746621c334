import Scenery

/// Holds one read's answer back, so that a test can make it return late: a read that began
/// before a change (or a module's own write) and returns after it.
///
/// A test puts the gate in front of the reads of the services a module is made with; the
/// read runs when the module asks, and its value waits at the gate while the gate holds it.
/// ``LiveModuleCheck`` uses one to prove that a module never shows an older read over newer
/// data.
///
/// ```swift
/// struct GatedBoard: BoardService {
///     let board: any BoardService
///     let gate: ReadGate
///     func tasks(on owner: String) async throws -> [BoardTask] { try await gate.read { try await board.tasks(on: owner) } }
///     // writes go straight to `board`
/// }
/// ```
public final class ReadGate: Sendable {
    private struct State {
        var holdsNext = false
        /// The read whose answer waits, resumed by ``release()``.
        var held: CheckedContinuation<Void, Never>?
        /// Who waits for a read to be held (``waitUntilHolding(timeout:)``).
        var holdingSignal = AsyncStream<Void>.makeStream()
    }

    private let state = Locked(State())

    /// A gate that lets every read through until ``holdNextRead()``.
    public init() {}

    /// Runs `read` now, and returns its answer: at once, or, for the next read after
    /// ``holdNextRead()``, once ``release()`` is called.
    public func read<Value>(isolation: isolated (any Actor)? = #isolation, _ read: () async throws -> Value) async throws -> Value {
        let answer: Result<Value, any Error>
        do { answer = .success(try await read()) } catch { answer = .failure(error) }
        let holds = state.withLock { state in
            defer { state.holdsNext = false }
            return state.holdsNext
        }
        if holds {
            await withCheckedContinuation { continuation in
                let signal = state.withLock { state in
                    state.held = continuation
                    return state.holdingSignal.continuation
                }
                signal.yield()
            }
        }
        return try answer.get()
    }

    /// Holds the answer of the next read (one read; those after it pass).
    public func holdNextRead() {
        state.withLock { state in
            state.holdsNext = true
            state.holdingSignal = AsyncStream<Void>.makeStream()
        }
    }

    /// Waits until a read's answer is held; `false` if none was by `timeout`.
    public func waitUntilHolding(timeout: Duration = .seconds(60)) async -> Bool {
        let signal = state.withLock { $0.holdingSignal.stream }
        return await withTaskGroup(of: Bool.self) { group in
            group.addTask {
                for await _ in signal { return true }
                return false
            }
            group.addTask {
                try? await Task.sleep(for: timeout)
                return false
            }
            let first = await group.next() ?? false
            group.cancelAll()
            return first
        }
    }

    /// Lets the held answer return (nothing happens when none is held), and stops holding.
    public func release() {
        let held = state.withLock { state in
            defer { (state.held, state.holdsNext) = (nil, false) }
            return state.held
        }
        held?.resume()
    }
}
