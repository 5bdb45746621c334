import Dispatch
import Testing

@testable import Scenery

/// The timer behind a module's deadline and a streamed start's budget.
@Suite(.timeLimit(.minutes(1))) struct DeadlineTimerTests {
    @Test func aDeadlineRunsItsActionOnce() async {
        let fired = AsyncStream<Void>.makeStream()
        let timer = DeadlineTimer(after: .milliseconds(1)) { fired.continuation.yield() }
        var iterator = fired.stream.makeAsyncIterator()
        #expect(await iterator.next() != nil)
        timer.cancel()  // after it ran: nothing to undo
    }

    @Test func durationsBecomeDispatchIntervalsWithoutOverflow() {
        #expect(DeadlineTimer.interval(.milliseconds(100)) == .nanoseconds(100_000_000))
        #expect(DeadlineTimer.interval(.seconds(2) + .nanoseconds(5)) == .nanoseconds(2_000_000_005))
        #expect(DeadlineTimer.interval(.zero) == .nanoseconds(0))
        #expect(DeadlineTimer.interval(.seconds(-3)) == .nanoseconds(0), "a deadline already past runs at once")
        #expect(DeadlineTimer.interval(.seconds(Int64.max)) == .never, "too long to count: never")
        #expect(DeadlineTimer.interval(.seconds(DeadlineTimer.longest)) == .never, "a century: never")
        #expect(DeadlineTimer.interval(.seconds(DeadlineTimer.longest - 1)) == .nanoseconds(Int(DeadlineTimer.longest - 1) * 1_000_000_000))
    }
}
