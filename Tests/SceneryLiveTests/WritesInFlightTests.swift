import Testing

@testable import SceneryLive

/// The bookkeeping of a query's writes: what waits for a write and what is fetched after.
@Suite struct WritesInFlightTests {
    @Test func aChangeToWhatIsBeingWrittenWaitsForThatWriteAndIsFetchedAfter() {
        var writes = WritesInFlight<BoardChange>()
        let (first, second, other) = (writes.begin(.task(7)), writes.begin(.task(7)), writes.begin(.task(8)))
        #expect(first && !second && other, "a second write of the same entity is refused while the first runs")
        let held = (writes.hold(.task(7)), writes.hold(.task(9)))
        #expect(held == (true, true), "while any write is in flight, every change waits")
        let afterSeven = writes.end(.task(7))
        #expect(afterSeven == [.task(7)], "the written entity is fetched once its write ended")
        let afterLast = writes.end(.task(8))
        #expect(afterLast == [.task(9)], "the rest once the last write ended")
        #expect(writes.isEmpty)
    }

    @Test func aWriteNobodyElseTouchedNeedsNoFetch() {
        var writes = WritesInFlight<BoardChange>()
        _ = writes.begin(.task(7))
        let refetch = writes.end(.task(7))
        let held = writes.hold(.task(7))
        #expect(refetch.isEmpty)
        #expect(!held, "no write in flight: fetched at once")
    }

    @Test func aChangeToEverythingWaitsForTheLastWriteAndStandsForTheRest() {
        var writes = WritesInFlight<BoardChange>()
        writes.beginUnnamed()
        _ = writes.begin(.task(1))
        _ = (writes.hold(.task(2)), writes.hold(.everything))
        let afterOne = writes.end(.task(1))
        let afterUnnamed = writes.endUnnamed()
        let again = writes.endUnnamed()
        #expect(afterOne.isEmpty, "an unnamed write is still in flight")
        #expect(afterUnnamed == [.everything], "everything covers the other change held")
        #expect(again.isEmpty, "told once")
    }
}
