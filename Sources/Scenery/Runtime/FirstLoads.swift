/// A scene's first loads: how many are still running, whether they all ended, and the one
/// signal its starter waits on (``SceneInstance/start(waitingAtMost:)``).
///
/// The starter goes on when the last load ends, when its budget passes, or when its task is
/// cancelled, whichever comes first; loads still running then go on, each one's outcome
/// reaching the host as an update. The starter waits on a stream that ending the loads (or
/// the budget's timer) finishes: no list of waiters, no task per wait, and nothing kept once
/// the loads ended. A scene starts once, so one starter waits.
struct FirstLoads: Sendable {
    /// What the starter waits on.
    struct Signal: Sendable {
        fileprivate let stream: AsyncStream<Never>
        fileprivate let release: AsyncStream<Never>.Continuation

        /// Returns when the loads ended, when `budget` passed (`nil`: no budget), or when the
        /// calling task is cancelled.
        func wait(atMost budget: Duration?) async {
            let release = release
            let timer = budget.map { DeadlineTimer(after: $0) { release.finish() } }
            for await _ in stream {}
            timer?.cancel()
        }
    }

    private var running = 0
    private(set) var haveEnded = false
    /// Ends the starter's wait, while it may wait.
    private var release: AsyncStream<Never>.Continuation?

    /// `count` first loads began; with none, they have ended.
    mutating func begin(_ count: Int) {
        running = count
        if count == 0 { end() }
    }

    /// One first load ended (loaded, failed or timed out); the last one ends them all.
    mutating func oneEnded() {
        running -= 1
        if running == 0 { end() }
    }

    /// The loads ended, or the scene was left: the starter goes on.
    mutating func end() {
        haveEnded = true
        release?.finish()
        release = nil
    }

    /// The signal for the starter to wait on; `nil` when the loads have ended.
    mutating func startWaiting() -> Signal? {
        guard !haveEnded else { return nil }
        let (stream, release) = AsyncStream<Never>.makeStream()
        self.release = release
        return Signal(stream: stream, release: release)
    }
}
