import Testing

@testable import Scenery

/// The signal a scene's starter waits on: the last first load ending, or its budget.
@Suite(.timeLimit(.minutes(1))) struct FirstLoadsTests {
    @Test func theStarterGoesOnWhenTheLastLoadEnds() async {
        var loads = FirstLoads()
        loads.begin(2)
        let waiting = loads
        async let waited: Void = waiting.wait(atMost: nil)
        loads.oneEnded()
        #expect(!loads.haveEnded)
        loads.oneEnded()
        #expect(loads.haveEnded)
        await waited
    }

    @Test func noLoadsHaveEndedAtOnce() async {
        var loads = FirstLoads()
        loads.begin(0)
        #expect(loads.haveEnded)
        await loads.wait(atMost: nil)
    }

    @Test func theStarterGoesOnWhenItsBudgetPassesAndTheLoadsRunOn() async {
        var loads = FirstLoads()
        loads.begin(1)
        await loads.wait(atMost: .milliseconds(5))
        #expect(!loads.haveEnded, "the load goes on after the budget")
        loads.oneEnded()
        #expect(loads.haveEnded)
    }

    @Test func aCancelledStarterGoesOn() async {
        var loads = FirstLoads()
        loads.begin(1)
        let waiting = loads
        let starter = Task { await waiting.wait(atMost: nil) }
        starter.cancel()
        await starter.value
        #expect(!loads.haveEnded)
    }

    @Test func leavingEndsTheWait() async {
        var loads = FirstLoads()
        loads.begin(3)
        let waiting = loads
        async let waited: Void = waiting.wait(atMost: nil)
        loads.end()
        await waited
        #expect(loads.haveEnded)
    }
}
