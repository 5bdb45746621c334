import Foundation
import Logging
import Scenery
import SceneryPageProtocol
import SceneryTesting
import Synchronization
import Testing

@testable import SceneryServer

/// A page is one isolation domain: the session, its scene and the modules that name the
/// page's executor run on it, so a like crosses four times from the socket's message to
/// the patch written: onto the page, to the store, back onto the page, and to the socket.
@Suite(.timeLimit(.minutes(5))) struct PageCrossingsTests {
    /// A store of likes off the page (an actor of its own, as a database connection is).
    actor LikeStore {
        private var likes = 0
        func like() -> Int {
            likes += 1
            return likes
        }
    }

    /// A like button on the page's executor that writes through the store.
    actor LikeModule: Module {
        static let like = EventKind<Empty>("likes.like")
        struct Empty: Codable, Sendable {}
        static let descriptor = ModuleDescriptor(type: "LikeModule", summary: "Counts likes.", sends: [like], performs: [like])

        private let context: ModuleContext
        private let store: LikeStore
        private var likes = 0
        nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }

        init(context: ModuleContext, store: LikeStore) {
            self.context = context
            self.store = store
        }

        func load(_ request: LoadRequest) async throws {}
        func render() -> ViewNode {
            .stack("likes", [.text("count", "Likes: \(likes)"), .button("like", title: "Like", sends: Self.like.descriptor(.init()))])
        }
        func perform(_ event: Event) async throws {
            likes = await store.like()
            await context.setNeedsRender()
        }
    }

    /// A socket that hands over everything written to it.
    final class Socket: PageSocket {
        let (written, writing) = AsyncStream.makeStream(of: String.self)
        func send(_ text: String) { writing.yield(text) }
        var unwritten: Int { 0 }
        var unwrittenBytes: Int { 0 }
        func close() { writing.finish() }
    }

    @Test func aLikeCrossesFourTimesFromTheSocketToItsPatch() async throws {
        let configuration = SceneryServer.Configuration(port: 0, cookieSecret: Array(repeating: 1, count: 32))
        let counter = CrossingCounter()
        let session = PageSession(
            id: "s", viewer: "1", sceneID: "likes", arguments: [:], renderer: HTMLRenderer(), configuration: configuration, logger: Logger(label: "test"),
            page: counter.page)
        var registry = SceneRegistry()
        let store = LikeStore()
        registry.register(LikeModule.self) { _, context in LikeModule(context: context, store: store) }
        registry.addScene(id: "likes", source: #"{ "modules": [ { "id": "likes", "type": "LikeModule" } ] }"#)
        let scene = try await registry.assemble("likes", for: SceneContext(viewer: "1"), host: session.host, on: session.page)
        await session.install(scene, baseline: await scene.takeBaseline())
        session.host.link(session)
        let socket = Socket()
        let connection = await session.attach(since: 0, socket: socket)
        let key = try ActionKey(validating: "likekey1")
        let tap = try PageProtocol.ClientMessage.event(node: "likes/like", action: key).jsonText()

        let before = counter.crossingsIn
        _ = await session.take(tap, from: connection)  // as the socket's reader hands it over
        var sawPatch = false
        for await text in socket.written {
            if text.contains("Likes: 1") { sawPatch = true }
            if text.contains(#""applied""#), text.contains(key.rawValue) { break }  // the action is done
        }
        let crossingsIn = counter.crossingsIn - before
        #expect(sawPatch)
        // Onto the page (the socket's message) and back onto it from the store: with the two
        // crossings off it (to the store, to the socket), four.
        #expect(crossingsIn == 2, "crossings onto the page for one like: \(crossingsIn)")
        await session.end()
    }
}
