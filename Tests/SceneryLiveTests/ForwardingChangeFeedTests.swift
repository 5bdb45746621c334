import Scenery
import SceneryTesting
import Testing

@testable import SceneryLive

/// A store or wrapper that names the feed its changes come from is that feed, with nothing
/// forwarded by hand.
@Suite(.timeLimit(.minutes(5))) struct ForwardingChangeFeedTests {
    /// A wrapper in front of a hub, as a fault injector is in front of a store.
    struct Wrapper: ForwardingChangeFeed {
        typealias Entity = BoardChange
        let hub: ChangeHub<BoardChange>
        var forwardedFeed: any ChangeFeed<BoardChange> { hub }
    }

    @Test func aForwardingFeedGivesTheChangesMarkAndFanOutsOfTheFeedItNames() async throws {
        let hub = ChangeHub<BoardChange>()
        let wrapper = Wrapper(hub: hub)
        let fanOuts = AwaitableLog<Int>()
        wrapper.observeFanOuts { fanOuts.append($0.deliveries) }
        let mark = try #require(wrapper.changeMark)
        var changes = wrapper.changes(to: [.task(1)]).makeAsyncIterator()
        #expect(hub.subscriptionCount(for: .task(1)) == 1, "the subscription is the hub's")

        hub.publish([.task(1)])
        #expect(await changes.next() == .task(1))
        #expect(wrapper.changeMark == hub.changeMark && wrapper.changeMark == mark + 1)
        #expect(wrapper.hasChanged([.task(1)], since: mark))
        #expect(!wrapper.hasChanged([.task(2)], since: mark))
        #expect(await fanOuts.wait { $0 == [1] }, "the hub's observer is the one the wrapper was given")
    }
}
