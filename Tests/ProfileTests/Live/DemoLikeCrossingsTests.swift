import Scenery
import SceneryTesting
import Testing

/// The demo's like is as short as a page allows: onto the page from the person's tap, and
/// back onto it from the store, whatever store the profile reads.
@Suite(.timeLimit(.minutes(5))) struct DemoLikeCrossingsTests {
    @Test(arguments: StoreKind.allCases) func aLikeOnTheProfilesBlogsCrossesOntoThePageTwice(_ kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let counter = CrossingCounter()
        let host = RecordingHost()
        let scene = try await backend.registry().assemble(
            "user-profile", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: host, on: counter.page)
        await scene.appear()
        _ = await scene.takeBaseline()
        let like = try #require(await scene.render().action(withID: "blogs/blog.26.like"))
        let before = counter.crossingsIn
        let outcome = await scene.send(like.event)
        #expect(outcome.result == .handled(by: .module("blogs")))
        #expect(host.updates.contains { $0.touches("blogs/blog.26") }, "the row's patch reached the host before the send returned")
        let crossings = counter.crossingsIn - before
        // The test → the page, the page → the store → the page: a write's closures run in the
        // module's isolation, not off it (a hop off the page and back, before).
        #expect(crossings == 2, "crossings onto the page for one like on \(kind): \(crossings)")
        await scene.leave()
    }
}
