import Scenery
import SceneryTesting
import Synchronization
import Testing

@testable import SceneryLive

/// A module's subscription while visible: what it says it missed, and how a change tried
/// again after a failed fetch waits its turn.
@Suite(.timeLimit(.minutes(5))) struct LiveChangesTests {
    @Test func aFirstFollowSaysWhetherWhatItFollowsChangedSinceTheModuleWasMade() {
        let hub = ChangeHub<BoardChange>()
        let changed = LiveChanges(hub)
        let untouched = LiveChanges(hub)
        hub.publish([.task(26), .comments(on: 1)])
        #expect(changed.follow([.task(26)]) { _ in }, "task 26 changed since it was made")
        #expect(!untouched.follow([.task(27)]) { _ in }, "task 27 did not")
        #expect(!changed.follow([.task(26), .task(28)]) { _ in }, "only the first follow looks back")
        let beforeEverything = LiveChanges(hub)
        hub.publish([.everything])
        #expect(beforeEverything.follow([.task(27)]) { _ in }, "everything changed")
    }

    @Test func aFeedThatForgotSaysItMayHaveChanged() {
        let hub = ChangeHub<BoardChange>()
        let old = LiveChanges(hub)
        hub.publish((0..<(2 * ChangeHub<BoardChange>.rememberedChanges + 1)).map { BoardChange.task(1000 + $0) })
        #expect(old.follow([.task(26)]) { _ in }, "the hub no longer remembers back to the module's start")
        #expect(!LiveChanges<BoardChange>(nil).follow([.task(26)]) { _ in }, "no feed: nothing to miss")
    }

    @Test func aStoppedSubscriptionSaysItMissedChangesWhenItFollowsAgain() {
        let hub = ChangeHub<BoardChange>()
        let live = LiveChanges(hub)
        #expect(!live.follow([.task(1)]) { _ in })
        live.stop()
        #expect(!live.isFollowing && hub.subscriptionCount == 0, "a hidden module costs the hub nothing")
        #expect(live.follow([.task(1)]) { _ in }, "shown again: it fetches what it shows")
    }

    /// A retry used to call the module beside the queue, so a fetch tried again could run
    /// at the same time as a newer change's fetch and land after it.
    @Test func aChangeTriedAgainWaitsInTheQueueAndNeverRunsBesideAnother() async {
        let hub = ChangeHub<BoardChange>()
        let live = LiveChanges(hub, retryDelay: .zero)
        let events = AwaitableLog<String>()
        let running = Locked((now: 0, most: 0, calls: 0))
        let gate = AsyncStream<Void>.makeStream()
        live.follow([.task(1)]) { change in
            let call = running.withLock { state in
                state.now += 1
                state.most = max(state.most, state.now)
                state.calls += 1
                return state.calls
            }
            events.append("start \(call)")
            if call == 1 {
                live.retry(change)  // the fetch failed: try again
                for await _ in gate.stream { break }
            }
            running.withLock { $0.now -= 1 }
            events.append("end \(call)")
        }
        hub.publish([.task(1)])
        #expect(await events.wait { $0.contains("start 1") })
        // The retry has been handed over: queued (as now) or running (as before).
        while live.waitingCount == 0 && !events.elements.contains("start 2") { await Task.yield() }
        gate.continuation.yield()
        #expect(await events.wait { $0.contains("end 2") })
        #expect(running.withLock { $0.most } == 1, "the retried change ran after the first, not beside it: \(events.elements)")
        #expect(events.elements == ["start 1", "end 1", "start 2", "end 2"])
    }
}
