/// When the page's scene next counts its impressions: one timer at a time, for the earliest
/// deadline asked for.
///
/// ```swift
/// var timer = ImpressionTimer()
/// timer.schedule(at: soon) { await session?.countImpressions() }
/// timer.schedule(at: later) { … }   // false: the earlier one stands
/// ```
struct ImpressionTimer {
    private var task: Task<Void, Never>?
    /// The deadline the running timer sleeps until.
    private(set) var deadline: ContinuousClock.Instant?

    /// Runs `count` at `deadline` unless a timer for an earlier (or the same) deadline
    /// runs; a later timer is cancelled. Returns whether a timer started.
    @discardableResult
    mutating func schedule(at deadline: ContinuousClock.Instant, _ count: @escaping @Sendable () async -> Void) -> Bool {
        if let scheduled = self.deadline, scheduled <= deadline { return false }
        task?.cancel()
        self.deadline = deadline
        task = Task {
            try? await Task.sleep(until: deadline, clock: .continuous)
            guard !Task.isCancelled else { return }
            await count()
        }
        return true
    }

    /// The timer fired: the next deadline may be any.
    mutating func fired() {
        deadline = nil
        task = nil
    }

    /// Stops the timer (the page ended).
    mutating func cancel() {
        task?.cancel()
        fired()
    }
}
