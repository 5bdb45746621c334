import Synchronization

/// One module load raced against a deadline, without trusting the module to honour
/// cancellation: whichever of "finished", "timed out" and "cancelled" comes first wins,
/// and the load is cancelled, never awaited. A hung module cannot hold its scene back,
/// and leaving a scene ends its waits at once.
final class LoadRace: Sendable {
    enum Outcome: Sendable {
        case finished
        case failed(any Error)
        case timedOut
        case cancelled
    }

    private let work: Task<Void, any Error>
    private let once = ResumeOnce()

    /// Starts the load.
    init(_ operation: @escaping @Sendable () async throws -> Void) {
        work = Task { try await operation() }
    }

    /// Waits for the load, the deadline or ``cancel()``, whichever comes first.
    func outcome(timeout: Duration) async -> Outcome {
        let work = self.work
        let once = self.once
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Outcome, Never>) in
                once.arm(continuation)
                let timer = Task {
                    try? await Task.sleep(for: timeout)
                    if !Task.isCancelled, once.resume(.timedOut) { work.cancel() }
                }
                Task {
                    let outcome: Outcome
                    do {
                        try await work.value
                        outcome = .finished
                    } catch is CancellationError {
                        outcome = .cancelled
                    } catch {
                        outcome = work.isCancelled ? .cancelled : .failed(error)
                    }
                    if once.resume(outcome) { timer.cancel() }
                }
            }
        } onCancel: {
            self.cancel()
        }
    }

    /// Cancels the load and ends the wait with ``Outcome/cancelled``.
    func cancel() {
        work.cancel()
        once.resume(.cancelled)
    }
}

/// A continuation that is resumed at most once, whoever gets there first.
private final class ResumeOnce: Sendable {
    private struct State {
        var continuation: CheckedContinuation<LoadRace.Outcome, Never>?
        var pending: LoadRace.Outcome?
        var done = false
    }

    private let state = Locked(State())

    func arm(_ continuation: CheckedContinuation<LoadRace.Outcome, Never>) {
        let early: LoadRace.Outcome? = state.withLock { state in
            if let pending = state.pending { return pending }
            state.continuation = continuation
            return nil
        }
        if let early { continuation.resume(returning: early) }
    }

    /// Resumes with `outcome` if nothing resumed yet; returns whether this call won.
    @discardableResult
    func resume(_ outcome: LoadRace.Outcome) -> Bool {
        let continuation: CheckedContinuation<LoadRace.Outcome, Never>?? = state.withLock { state in
            guard !state.done else { return .none }
            state.done = true
            guard let continuation = state.continuation else {
                state.pending = outcome
                return .some(nil)
            }
            state.continuation = nil
            return .some(continuation)
        }
        switch continuation {
        case .none: return false
        case .some(let continuation):
            continuation?.resume(returning: outcome)
            return true
        }
    }
}

/// A weak link from module contexts to their scene, set once the scene exists.
final class SceneLink: Sendable {
    private struct Box: Sendable { weak var scene: SceneInstance? }
    private let box = Locked(Box())

    var scene: SceneInstance? {
        get { box.withLock { $0.scene } }
        set { box.withLock { $0.scene = newValue } }
    }
}
