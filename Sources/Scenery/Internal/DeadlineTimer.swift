import Dispatch

/// Runs an action once, `duration` from now, unless cancelled first: a timer of Dispatch's
/// rather than a task that sleeps. A task asleep is woken on a thread to end when its wait is
/// cancelled, and a page's GET cancelled two such waits (its module's deadline and the
/// streamed start's budget); a cancelled timer wakes nothing, and lets go of its action at
/// once (a cancelled `asyncAfter` item would keep it until its deadline).
final class DeadlineTimer: @unchecked Sendable {
    // Dispatch's sources are thread-safe (its own locking); this one is set up once, here,
    // and then only cancelled.
    private let source: any DispatchSourceTimer

    init(after duration: Duration, _ action: @escaping @Sendable () -> Void) {
        source = DispatchSource.makeTimerSource(queue: .global())
        source.setEventHandler(handler: action)
        source.schedule(deadline: .now() + Self.interval(duration), repeating: .never)
        source.activate()
    }

    deinit { source.cancel() }

    /// The action does not run if it has not started.
    func cancel() { source.cancel() }

    /// `duration` as Dispatch's interval: a negative one as zero, and a century or more as
    /// `never` (no load outlives it, and added to now it could not overflow).
    static func interval(_ duration: Duration) -> DispatchTimeInterval {
        let (seconds, attoseconds) = duration.components
        guard seconds >= 0 else { return .nanoseconds(0) }
        guard seconds < longest else { return .never }
        return .nanoseconds(Int(seconds * 1_000_000_000 + attoseconds / 1_000_000_000))
    }

    /// A century, in seconds.
    static let longest: Int64 = 100 * 365 * 24 * 3600
}
