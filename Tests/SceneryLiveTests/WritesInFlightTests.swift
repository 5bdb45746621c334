import Testing

@testable import SceneryLive

/// The bookkeeping of optimistic writes: what waits for a write and what is fetched after.
@Suite struct WritesInFlightTests {
    @Test func aChangeToARowBeingWrittenWaitsForTheWriteAndIsFetchedAfter() {
        var writes = WritesInFlight<Int>()
        let first = writes.begin(7)
        let second = writes.begin(7)
        #expect(first && !second, "a second write of the same row is refused while the first runs")
        let held = writes.holdChange(to: 7)
        let other = writes.holdChange(to: 8)
        #expect(held, "changed while written: held")
        #expect(!other, "another row is fetched now")
        let refetch = writes.end(7)
        #expect(refetch == .key(7), "fetched again once the write ended")
        #expect(writes.isEmpty)
    }

    @Test func aWriteNobodyElseTouchedNeedsNoFetch() {
        var writes = WritesInFlight<Int>()
        _ = writes.begin(7)
        let refetch = writes.end(7)
        #expect(refetch == nil)
    }

    @Test func aChangeToEverythingWaitsForTheLastWrite() {
        var writes = WritesInFlight<Int>()
        let idle = writes.holdChangeToAll()
        #expect(!idle, "no write in flight: fetch at once")
        _ = (writes.begin(1), writes.begin(2))
        let held = writes.holdChangeToAll()
        #expect(held && writes.contains(2))
        let afterFirst = writes.end(1)
        let afterLast = writes.end(2)
        let again = writes.end(2)
        #expect(afterFirst == nil, "a write is still in flight")
        #expect(afterLast == .everything)
        #expect(again == nil, "told once")
    }
}
