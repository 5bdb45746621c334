import Testing

@testable import Scenery

/// The signal a scene's starter waits on: the last first load ending, or its budget.
@Suite(.timeLimit(.minutes(1))) struct FirstLoadsTests {
    @Test func theStarterGoesOnWhenTheLastLoadEnds() async throws {
        var loads = FirstLoads()
        loads.begin(2)
        let waiting = loads.startWaiting()
        let signal = try #require(waiting)
        async let waited: Void = signal.wait(atMost: nil)
        loads.oneEnded()
        #expect(!loads.haveEnded)
        loads.oneEnded()
        #expect(loads.haveEnded)
        await waited
    }

    @Test func noLoadsHaveEndedAtOnceAndGiveNothingToWaitOn() {
        var loads = FirstLoads()
        loads.begin(0)
        #expect(loads.haveEnded)
        let waiting = loads.startWaiting()
        #expect(waiting == nil)
    }

    @Test func theStarterGoesOnWhenItsBudgetPassesAndTheLoadsRunOn() async throws {
        var loads = FirstLoads()
        loads.begin(1)
        let waiting = loads.startWaiting()
        await (try #require(waiting)).wait(atMost: .milliseconds(5))
        #expect(!loads.haveEnded, "the load goes on after the budget")
        loads.oneEnded()
        #expect(loads.haveEnded)
    }

    @Test func aCancelledStarterGoesOn() async throws {
        var loads = FirstLoads()
        loads.begin(1)
        let waiting = loads.startWaiting()
        let signal = try #require(waiting)
        let starter = Task { await signal.wait(atMost: nil) }
        starter.cancel()
        await starter.value
        #expect(!loads.haveEnded)
    }

    @Test func leavingEndsTheWait() async throws {
        var loads = FirstLoads()
        loads.begin(3)
        let waiting = loads.startWaiting()
        let signal = try #require(waiting)
        async let waited: Void = signal.wait(atMost: nil)
        loads.end()
        await waited
        #expect(loads.haveEnded)
    }
}
