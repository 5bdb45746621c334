import Foundation
import ProfileDemoDomain
import ProfileDemoStore
import Scenery
import SceneryExperiments
import Synchronization
import Testing

/// The database sink of impressions survives a database that goes away: it retries with
/// back-off into a bounded buffer, says when it drops, and says when it writes again.
@Suite(.timeLimit(.minutes(5))) struct DatabaseImpressionSinkTests {
    /// A database that refuses writes while it is "down", and wakes a test at each write.
    final class FlakyTable: Sendable {
        let state = Locked<(isDown: Bool, rows: [ImpressionRecord], attempts: Int)>((true, [], 0))
        let (writes, wrote) = AsyncStream.makeStream(of: Int.self)

        func insert(_ records: [ImpressionRecord]) throws(ProfileError) {
            let outcome = state.withLock { state -> Int? in
                state.attempts += 1
                guard !state.isDown else { return nil }
                state.rows += records
                return state.rows.count
            }
            wrote.yield(outcome ?? -1)
            guard outcome != nil else { throw ProfileError.storage("the database is away") }
        }

        var rows: [ImpressionRecord] { state.withLock { $0.rows } }
    }

    final class Notices: Sendable {
        let lines = Locked<[String]>([])
        let failures = Locked(0)
    }

    static func record(_ unit: Int) -> ImpressionRecord {
        ImpressionRecord(
            kind: .assignment, time: Date(timeIntervalSince1970: 1_767_258_000), scene: "user-profile", variant: "visitor", unit: "\(unit)",
            experiment: "friends-layout", arm: "rows")
    }

    @Test func aFailedBatchIsRetriedAndLaterRecordsAreWrittenNotDropped() async throws {
        let table = FlakyTable()
        let notices = Notices()
        let sink = DatabaseImpressionSink(
            capacity: 100, retryDelays: [.milliseconds(1)], onNotice: { line in notices.lines.withLock { $0.append(line) } },
            onFailure: { _ in notices.failures.withLock { $0 += 1 } }, writing: { records throws(ProfileError) in try table.insert(records) })
        var writes = table.writes.makeAsyncIterator()
        sink.record(Self.record(1))
        #expect(await writes.next() == -1, "the first write fails: the database is away")
        for unit in 2...5 { sink.record(Self.record(unit)) }
        #expect(await writes.next() == -1, "and is tried again")
        table.state.withLock { $0.isDown = false }
        while let written = await writes.next(), written < 5 {}
        #expect(table.rows.compactMap(\.unit).sorted() == ["1", "2", "3", "4", "5"], "nothing recorded during the blip is lost")
        #expect(notices.failures.withLock { $0 } == 1, "one outage, heard once")
        #expect(notices.lines.withLock { $0 }.contains("Impressions are written again, none lost."))
        sink.record(Self.record(6))
        while let written = await writes.next(), written < 6 {}
        #expect(table.rows.count == 6, "and it goes on recording after the outage")
    }

    @Test func pastItsCapacityTheOldestWaitingRecordsAreDroppedAndCounted() async throws {
        let table = FlakyTable()
        let notices = Notices()
        let sink = DatabaseImpressionSink(
            capacity: 10, retryDelays: [.milliseconds(1)], onNotice: { line in notices.lines.withLock { $0.append(line) } },
            writing: { records throws(ProfileError) in try table.insert(records) })
        var writes = table.writes.makeAsyncIterator()
        sink.record(Self.record(0))
        #expect(await writes.next() == -1)
        for unit in 1...30 { sink.record(Self.record(unit)) }
        #expect(sink.waiting <= 10, "the buffer stays within its bound")
        table.state.withLock { $0.isDown = false }
        while let written = await writes.next(), written < 10 {}
        let units = Set(table.rows.compactMap(\.unit))
        #expect(units.count == 10 && units.contains("30"), "the newest ten are kept")
        let lines = notices.lines.withLock { $0 }
        #expect(lines.contains { $0.contains("the oldest are being dropped") }, "\(lines)")
        #expect(lines.contains { $0.contains("21 were dropped while the database was away") }, "\(lines)")
    }
}
