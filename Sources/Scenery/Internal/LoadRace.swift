import Synchronization

/// One module load raced against a deadline, without trusting the module to honour
/// cancellation: whichever of "finished", "timed out" and "cancelled" comes first wins, the
/// load is cancelled if it did not win, never awaited, and `onEnd` runs once with the
/// winner. A hung module cannot hold its scene back, and leaving a scene ends its waits at
/// once.
///
/// The load's own task runs `onEnd` when the load wins, so a load that finishes in time
/// costs one task and no thread woken to wait for it (a page's first loads are on the path
/// of its first byte).
final class LoadRace: Sendable {
    enum Outcome: Sendable {
        case finished
        case failed(any Error)
        case timedOut
        case cancelled
    }

    private let claim = Atomic<Bool>(false)
    private let onEnd: @Sendable (Outcome) async -> Void
    private let parts = Locked<(work: Task<Void, Never>?, timer: DeadlineTimer?)>((nil, nil))

    /// Starts `operation` under `timeout`; `onEnd` runs once, with what ended the race.
    static func start(
        timeout: Duration, _ operation: @escaping @Sendable () async throws -> Void, onEnd: @escaping @Sendable (Outcome) async -> Void
    ) -> LoadRace {
        let race = LoadRace(onEnd: onEnd)
        race.begin(timeout: timeout, operation)
        return race
    }

    private init(onEnd: @escaping @Sendable (Outcome) async -> Void) {
        self.onEnd = onEnd
    }

    private func begin(timeout: Duration, _ operation: @escaping @Sendable () async throws -> Void) {
        let work = Task {
            let outcome: Outcome
            do {
                try await operation()
                outcome = .finished
            } catch is CancellationError {
                outcome = .cancelled
            } catch {
                outcome = Task.isCancelled ? .cancelled : .failed(error)
            }
            guard self.wins() else { return }
            self.parts.withLock { $0.timer }?.cancel()
            await self.onEnd(outcome)
        }
        // The deadline ends the race from a task, as the load would: when the task pool is
        // too busy to run the load, it is too busy to call the load late (a timer thread
        // would, and time loads out whenever the machine is loaded).
        let timer = DeadlineTimer(after: timeout) { [weak self] in Task { self?.end(.timedOut) } }
        parts.withLock { $0 = (work, timer) }
        // The deadline or a cancel may have come before the parts were kept.
        if claim.load(ordering: .acquiring) { work.cancel() }
    }

    /// Cancels the load; `onEnd` runs with ``Outcome/cancelled`` unless it ended already.
    func cancel() { end(.cancelled) }

    private func end(_ outcome: Outcome) {
        guard wins() else { return }
        let (work, timer) = parts.withLock { $0 }
        work?.cancel()
        timer?.cancel()
        Task { await self.onEnd(outcome) }
    }

    /// Whether this caller is the first to end the race.
    private func wins() -> Bool {
        !claim.exchange(true, ordering: .acquiringAndReleasing)
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
