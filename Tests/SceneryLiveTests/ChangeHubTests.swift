import Scenery
import SceneryTesting
import Synchronization
import Testing

@testable import SceneryLive

/// How a hub hands an app's changes to its subscribers: by entity, merged while they are
/// busy, never back to the writer that made them.
@Suite(.timeLimit(.minutes(5))) struct ChangeHubTests {
    @Test func aChangeWakesOnlyTheSubscribersOfItsEntityAndEverythingWakesAll() async {
        let hub = ChangeHub<BoardChange>()
        var task1 = hub.changes(to: [.task(1)]).makeAsyncIterator()
        var comments = hub.changes(to: [.comments(on: 1)]).makeAsyncIterator()
        hub.publish([.task(2), .task(1)])
        #expect(await task1.next() == .task(1))
        #expect(hub.subscriptionCount(for: .task(2)) == 0, "nobody follows task 2: publishing it cost no subscriber")
        hub.publish([.everything])
        #expect(await comments.next() == .everything, "the comments' subscriber heard nothing before everything")
        #expect(await task1.next() == .everything)
    }

    @Test func aBusySubscriberGetsEachEntityOnceAndEverythingReplacesWhatWaits() async {
        let hub = ChangeHub<BoardChange>()
        var changes = hub.changes(to: [.task(1), .task(2)]).makeAsyncIterator()
        hub.publish(Array(repeating: BoardChange.task(1), count: 10) + [.task(2), .task(1), .task(3)])
        #expect(await changes.next() == .task(1))
        #expect(await changes.next() == .task(2), "ten changes to task 1 while busy are one; task 3 is not followed")
        hub.publish([.task(2), .everything, .task(1)])
        #expect(await changes.next() == .everything, "everything replaces what waited, and what came after it")
        hub.publish([.task(2)])
        #expect(await changes.next() == .task(2))
    }

    @Test func aWritersOwnChangeDoesNotComeBackToItButAnotherWritersDoes() async {
        let hub = ChangeHub<BoardChange>()
        let writer = LiveChanges(hub)
        let onlooker = LiveChanges(hub)
        let heardByWriter = AwaitableLog<BoardChange>()
        let heardByOnlooker = AwaitableLog<BoardChange>()
        writer.follow([.task(1), .task(2)]) { heardByWriter.append($0) }
        onlooker.follow([.task(1), .task(2)]) { heardByOnlooker.append($0) }
        await ActionKey.run(as: nil) { await writer.writing { hub.publish([.task(1)]) } }
        hub.publish([.task(2)])  // another writer's
        #expect(await heardByWriter.wait { $0.contains(.task(2)) })
        #expect(heardByWriter.elements == [.task(2)], "its own change to task 1 did not come back (changes arrive in order)")
        #expect(await heardByOnlooker.wait { $0 == [.task(1), .task(2)] }, "everyone else hears both")
        await ActionKey.run(as: nil) { await writer.writing { hub.publish([.everything]) } }
        #expect(await heardByWriter.wait { $0.last == .everything }, "everything reaches the writer too")
    }

    @Test func everythingAfterAReconnectReachesSubscribersInWavesNotAllAtOnce() async {
        let hub = ChangeHub<BoardChange>()
        let subscriptions = (0..<95).map { hub.changes(to: [.task($0)]) }
        let mark = hub.changeMark ?? 0
        let waves = Locked(0)
        await hub.publishEverything(inWavesOf: 10) { waves.withLock { $0 += 1 } }
        #expect(waves.withLock { $0 } == 9, "95 subscribers, ten at a time: nine pauses between ten waves")
        #expect(LiveChanges(hub).follow([.task(7)]) { _ in } == false, "a module made after it has nothing to catch up")
        #expect(hub.hasChanged([.task(7)], since: mark), "it counts as published at once")
        for changes in subscriptions {
            var iterator = changes.makeAsyncIterator()
            #expect(await iterator.next() == .everything, "and every subscriber is told")
        }
    }

    @Test func aChangeToManySubscribersReachesThemInWavesAndLaterChangesKeepTheirOrder() async {
        let hub = ChangeHub<BoardChange>()
        let count = ChangeHub<BoardChange>.waveSize * 3 + 7
        let subscriptions = (0..<count).map { _ in hub.changes(to: [.task(1), .task(2), .task(3)]) }
        hub.publish([.task(1)])
        #expect(hub.drainsStarted == 1, "past one wave, the change is handed over by a task of its own")
        hub.publish([.task(2)])  // few or many, a change published meanwhile waits behind the waves
        hub.publish([.task(3)])
        for changes in subscriptions {
            var iterator = changes.makeAsyncIterator()
            #expect(await iterator.next() == .task(1))
            #expect(await iterator.next() == .task(2))
            #expect(await iterator.next() == .task(3), "every subscriber receives the changes in the order they were published")
        }
        #expect(hub.waitingDeliveries == 0, "every wave was handed over")
        let drains = hub.drainsStarted
        let few = hub.changes(to: [.task(9)])
        hub.publish([.task(9)])
        #expect(hub.drainsStarted == drains, "one subscriber: handed over at once")
        var iterator = few.makeAsyncIterator()
        #expect(await iterator.next() == .task(9))
    }

    @Test func aChangeToFewSubscribersIsHandedOverAtOnce() {
        let hub = ChangeHub<BoardChange>()
        let subscriptions = (0..<ChangeHub<BoardChange>.waveSize).map { _ in hub.changes(to: [.task(1)]) }
        hub.publish([.task(1)])
        #expect(hub.waitingDeliveries == 0)
        #expect(subscriptions.allSatisfy { $0.subscription.waitingCount == 1 }, "each holds the change already")
    }

    @Test func eachFanOutIsReportedWithWhatItReachedAtOnceOrInWaves() async {
        let hub = ChangeHub<BoardChange>()
        let reported = AsyncStream.makeStream(of: FanOut.self)
        hub.observeFanOuts { reported.continuation.yield($0) }
        var fanOuts = reported.stream.makeAsyncIterator()
        hub.publish([.task(5)])  // nobody follows it: nothing handed over, nothing reported
        let few = (0..<3).map { _ in hub.changes(to: [.task(1), .task(2)]) }
        hub.publish([.task(1), .task(2)])
        let atOnce = await fanOuts.next()
        #expect(atOnce?.changes == 2 && atOnce?.deliveries == 6 && atOnce?.isInWaves == false, "\(String(describing: atOnce))")
        let many = (0..<ChangeHub<BoardChange>.waveSize * 2).map { _ in hub.changes(to: [.task(3)]) }
        hub.publish([.task(3)])
        let inWaves = await fanOuts.next()
        #expect(inWaves?.deliveries == many.count && inWaves?.changes == 1 && inWaves?.isInWaves == true, "reported once the waves are handed over")
        #expect(few.count + many.count == hub.subscriptionCount)
    }

    @Test func cancellingTheIteratingTaskEndsTheSubscription() async {
        let hub = ChangeHub<BoardChange>()
        let changes = hub.changes(to: [.task(1)])
        #expect(hub.subscriptionCount(for: .task(1)) == 1)
        let task = Task {
            var received = 0
            for await _ in changes { received += 1 }
            return received
        }
        task.cancel()
        #expect(await task.value == 0)
        #expect(hub.subscriptionCount == 0, "the hub forgot the subscriber")
        hub.publish([.task(1)])  // no one to deliver to; nothing kept
    }
}
