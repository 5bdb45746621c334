import Scenery
import SceneryLive
import Synchronization
import Testing

/// A change reaches its subscribers under the origin of the page whose action wrote it, so
/// that page does not announce its own doing.
@Suite(.timeLimit(.minutes(5))) struct ChangeSourceTests {
    /// What one subscription's handler saw: each change, and the origin it arrived under.
    final class Heard: Sendable {
        let seen = Locked<[(BoardChange, ChangeSource?)]>([])
        let arrivals = AsyncStream<Void>.makeStream()
        /// Holds the handler at its first change until opened, so that others wait meanwhile.
        let holdFirst = Locked<CheckedContinuation<Void, Never>?>(nil)
        let held = AsyncStream<Void>.makeStream()
        let holds: Bool

        init(holdingTheFirst holds: Bool = false) { self.holds = holds }

        func record(_ change: BoardChange) async {
            let isFirst = seen.withLock { seen in
                seen.append((change, WriteContext.current.page))
                return seen.count == 1
            }
            if holds, isFirst {
                await withCheckedContinuation { continuation in
                    holdFirst.withLock { $0 = continuation }
                    held.continuation.yield()
                }
            }
            arrivals.continuation.yield()
        }

        func waitForArrivals(_ count: Int) async {
            var iterator = arrivals.stream.makeAsyncIterator()
            for _ in 0..<count { _ = await iterator.next() }
        }
    }

    @Test func aChangeReachesSubscribersUnderTheOriginOfItsWrite() async throws {
        let hub = ChangeHub<BoardChange>()
        let live = LiveChanges(hub)
        let heard = Heard()
        live.follow([.task(1)]) { await heard.record($0) }
        let page = ChangeSource()
        WriteContext.current.onPage(page).run { hub.publish([.task(1)]) }
        await heard.waitForArrivals(1)
        hub.publish([.task(1)])
        await heard.waitForArrivals(1)
        #expect(heard.seen.withLock { $0.map(\.1) } == [page, nil])
    }

    @Test func changesOfTwoPagesMergedWhileWaitingHaveNoOneOrigin() async throws {
        let hub = ChangeHub<BoardChange>()
        let live = LiveChanges(hub)
        let heard = Heard(holdingTheFirst: true)
        live.follow([.task(1), .task(2)]) { await heard.record($0) }
        hub.publish([.task(1)])
        var held = heard.held.stream.makeAsyncIterator()
        _ = await held.next()  // the handler is busy with task 1
        let (mine, yours) = (ChangeSource(), ChangeSource())
        WriteContext.current.onPage(mine).run { hub.publish([.task(2)]) }
        WriteContext.current.onPage(yours).run { hub.publish([.task(2)]) }
        heard.holdFirst.withLock { $0?.resume() }
        await heard.waitForArrivals(2)
        let seen = heard.seen.withLock { $0 }
        #expect(seen.map(\.0) == [.task(1), .task(2)], "task 2 twice is one change")
        #expect(seen.last?.1 == nil, "two pages' doing is no one page's")
    }
}
