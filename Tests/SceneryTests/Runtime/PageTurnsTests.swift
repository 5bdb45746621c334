import Testing

@testable import Scenery

/// The bookkeeping of a page's executor: jobs in order, one turn at a time, and never a
/// page's work left behind a low-priority turn.
@Suite struct PageTurnsTests {
    static let (low, medium, high) = (TaskPriority.low.rawValue, TaskPriority.medium.rawValue, TaskPriority.high.rawValue)

    /// Runs the turn that starts on `thread`: the jobs it ran, and the priority it asked
    /// another turn at, if any.
    static func runTurn(_ turns: inout PageTurns<Int>, on thread: UInt = 1) -> (ran: [Int], asked: UInt8?) {
        guard turns.startTurn(on: thread) else { return ([], nil) }
        var ran: [Int] = []
        while let job = turns.nextJob() { ran.append(job) }
        return (ran, turns.endTurn())
    }

    @Test func theFirstJobAsksForATurnAndTheNextOnesWaitForIt() {
        var turns = PageTurns<Int>()
        let first = turns.append(1, priority: Self.medium)
        let second = turns.append(2, priority: Self.medium)
        #expect(first == Self.medium && second == nil)
        let turn = Self.runTurn(&turns)
        #expect(turn.ran == [1, 2] && turn.asked == nil)
    }

    @Test func aJobThatComesWhileATurnRunsJoinsThatTurn() {
        var turns = PageTurns<Int>()
        _ = turns.append(1, priority: Self.medium)
        let started = turns.startTurn(on: 7)
        let first = turns.nextJob()
        let asked = turns.append(2, priority: Self.high)
        let second = turns.nextJob()
        let again = turns.endTurn()
        #expect(started && first == 1 && second == 2)
        #expect(asked == nil && again == nil, "no other turn is asked for")
        #expect(turns.drainingThread == nil && turns.isEmpty)
    }

    @Test func aHigherPriorityJobAsksForATurnOfItsOwnWhileTheAskedOneHasNotStarted() {
        var turns = PageTurns<Int>()
        let forLow = turns.append(1, priority: Self.low)
        let forHigh = turns.append(2, priority: Self.high)
        let forMedium = turns.append(3, priority: Self.medium)
        #expect(forLow == Self.low && forHigh == Self.high)
        #expect(forMedium == nil, "a turn at a higher priority is asked for already")
        let turn = Self.runTurn(&turns, on: 1)
        #expect(turn.ran == [1, 2, 3], "the first turn to start runs every job, in order")
        let late = Self.runTurn(&turns, on: 2)
        #expect(late.ran.isEmpty, "the other turn finds nothing to do")
    }

    @Test func aTurnStartingWhileAnotherRunsEndsAtOnce() {
        var turns = PageTurns<Int>()
        _ = turns.append(1, priority: Self.medium)
        let first = turns.startTurn(on: 1)
        let second = turns.startTurn(on: 2)
        #expect(first && !second, "one turn at a time")
        #expect(turns.drainingThread == 1)
    }

    @Test func aTurnThatEndsWithJobsLeftAsksForAnotherAtTheHighestPriorityLeft() {
        var turns = PageTurns<Int>()
        _ = turns.append(1, priority: Self.low)
        _ = turns.startTurn(on: 1)
        let first = turns.nextJob()
        _ = turns.append(2, priority: Self.low)
        _ = turns.append(3, priority: Self.high)
        let asked = turns.endTurn()
        #expect(first == 1 && asked == Self.high)
        let next = Self.runTurn(&turns)
        #expect(next.ran == [2, 3])
    }

    @Test func aJobOfNoStatedPriorityCountsAsMedium() {
        var turns = PageTurns<Int>()
        let asked = turns.append(1, priority: 0)
        #expect(asked == Self.medium)
    }

    @Test func aLongQueueIsCompactedAsItRunsAndKeepsItsOrder() {
        var turns = PageTurns<Int>()
        for job in 0..<200 { _ = turns.append(job, priority: Self.medium) }
        _ = turns.startTurn(on: 1)
        var ran: [Int] = []
        for _ in 0..<100 { turns.nextJob().map { ran.append($0) } }
        let asked = turns.endTurn()
        ran += Self.runTurn(&turns).ran
        #expect(asked == Self.medium)
        #expect(ran == Array(0..<200))
        #expect(turns.isEmpty)
    }
}
