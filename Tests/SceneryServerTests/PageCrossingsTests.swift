import Foundation
import Logging
import NIOEmbedded
import Scenery
import SceneryPageProtocol
import SceneryTesting
import Testing

@testable import SceneryServer

/// A page is one isolation domain: the session, its scene and the modules that name the
/// page's executor run on it, so a like crosses four times from the socket's message to
/// the patch written: onto the page, to the store, back onto the page, and to the socket.
@Suite(.timeLimit(.minutes(5))) struct PageCrossingsTests {
    /// Rows of notes with a like button each, counted in a store off the page; a like
    /// renders its row alone, as the demo's blogs do.
    actor NotesModule: Module {
        static let like = EventKind("note.like", payload: Like.self)
        struct Like: Codable, Sendable { var note: Int }
        static let descriptor = ModuleDescriptor(type: "NotesModule", summary: "Notes to like.", sends: [like], performs: [like])

        private let context: ModuleContext
        private let store: NoteLikes
        private var likes = [0, 0, 0]
        nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }

        init(context: ModuleContext, store: NoteLikes) {
            self.context = context
            self.store = store
        }

        func load(_ request: LoadRequest) async throws {}
        func render() -> ViewNode {
            .list("notes", sections: [.init(id: "all", header: "Notes", rows: likes.indices.map(row))])
        }
        func render(_ id: NodeID) -> ViewNode? {
            guard let number = Int(id.rawValue.dropFirst("note.".count)), likes.indices.contains(number) else { return nil }
            return row(number)
        }
        private func row(_ number: Int) -> ViewNode {
            .stack(
                "note.\(number)", axis: .horizontal,
                [
                    .text("note.\(number).likes", "Note \(number): \(likes[number]) likes"),
                    .button("note.\(number).like", title: "Like", sends: Self.like.descriptor(Like(note: number))),
                ])
        }
        func perform(_ event: Event) async throws {
            guard let like = try Self.like.payload(of: event), likes.indices.contains(like.note) else { return }
            likes[like.note] = await store.like(like.note)
            await context.setNeedsRender(["note.\(like.note)"])
        }
    }

    /// The likes, in a domain of their own (as a database connection is).
    actor NoteLikes {
        private let domain: CrossingDomain
        private var counts: [Int: Int] = [:]
        nonisolated var unownedExecutor: UnownedSerialExecutor { domain.unownedExecutor }
        init(domain: CrossingDomain) { self.domain = domain }

        func like(_ note: Int) -> Int {
            counts[note, default: 0] += 1
            return counts[note, default: 0]
        }
    }

    /// A socket whose writes are handed to its event loop, each with the number of the
    /// crossing that hands it over.
    final class Socket: PageSocket {
        let counter: CrossingCounter
        let loop: CrossingDomain
        let (written, writing) = AsyncStream.makeStream(of: (text: String, crossing: Int).self)
        init(counter: CrossingCounter, loop: CrossingDomain) {
            self.counter = counter
            self.loop = loop
        }
        func send(_ text: String) {
            let crossing = counter.path.count  // on the page: the next crossing is this one
            loop.run { [writing] in writing.yield((text, crossing)) }
        }
        var unwritten: Int { 0 }
        var unwrittenBytes: Int { 0 }
        func close() { writing.finish() }
    }

    @Test func aLikeCrossesFourTimesFromTheSocketsReadToItsPatchWritten() async throws {
        let configuration = SceneryServer.Configuration(port: 0, cookieSecret: Array(repeating: 1, count: 32))
        let counter = CrossingCounter()
        let loop = counter.domain(named: "socket")
        let session = PageSession(
            id: "s", viewer: "1", sceneID: "notes", arguments: [:], renderer: HTMLRenderer(), configuration: configuration, logger: Logger(label: "test"),
            page: counter.page)
        var registry = SceneRegistry()
        let store = NoteLikes(domain: counter.domain(named: "store"))
        registry.register(NotesModule.self) { _, context in NotesModule(context: context, store: store) }
        registry.addScene(id: "notes", source: #"{ "modules": [ { "id": "notes", "type": "NotesModule" } ] }"#)
        let scene = try await registry.assemble("notes", for: SceneContext(viewer: "1"), host: session.host, on: session.page)
        await session.install(scene, baseline: await scene.takeBaseline())
        session.host.link(session)
        let socket = Socket(counter: counter, loop: loop)
        let connection = await session.attach(since: 0, socket: socket)
        // The socket's inbox, as the server makes it for an upgraded WebSocket.
        let inbox = PageSocketInbox { _ in (session, connection) }
        inbox.open(channel: EmbeddedChannel())
        let key = try ActionKey(validating: "likekey1")
        let tap = try PageProtocol.ClientMessage.event(node: "notes/note.1.like", action: key).jsonText()

        let before = counter.path.count + 1  // after the network hands the frame to the event loop
        loop.run { inbox.received(tap) }  // the event loop reads it
        var patch: Int?
        for await (text, crossing) in socket.written {
            if patch == nil, text.contains("Note 1: 1 likes") { patch = crossing }
            if text.contains(#""applied""#), text.contains(key.rawValue) { break }  // the action is done
        }
        let crossings = Array(counter.path[before...(try #require(patch, "the patch was written"))])
        #expect(
            crossings.map(\.description) == ["socket → page", "page → store", "store → page", "page → socket"],
            "the like's path: \(crossings.map(\.description).joined(separator: ", "))")
        await session.end()
    }
}
