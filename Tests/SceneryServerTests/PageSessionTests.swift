import Logging
import Scenery
import SceneryTesting
import Synchronization
import Testing

@testable import SceneryServer

@Suite struct PageSessionTests {
    func session(maxQueued: Int) -> PageSession {
        var configuration = SceneryServer.Configuration(port: 0, cookieSecret: Array(repeating: 1, count: 32))
        configuration.maxQueuedMessages = maxQueued
        return PageSession(
            id: "s", viewer: nil, sceneID: "x", arguments: [:], renderer: HTMLRenderer(), configuration: configuration,
            logger: Logger(label: "test"))
    }

    @Test func aPageThatDoesNotReadIsDisconnectedNotBuffered() async {
        let page = session(maxQueued: 16)
        let socket = StalledSocket()
        _ = await page.attach(since: 0, socket: socket)
        // The socket takes no write; the resume token sent on attach and every refusal are
        // messages to the page.
        for _ in 0..<15 { await page.receive("not json") }
        #expect(await page.isAttached, "up to the limit, messages wait")
        await page.receive("not json")
        #expect(await !page.isAttached, "past it, the socket is let go (the page reconnects and catches up)")
        await socket.closed()
        #expect(socket.unwritten == 16, "nothing more is sent to a socket that takes nothing")
    }

    @Test func messagesReachTheSocketInOrder() async throws {
        let page = session(maxQueued: 256)
        let socket = RecordingSocket()
        _ = await page.attach(since: 0, socket: socket)
        for index in 0..<20 { await page.showErrors("error number \(index).") }
        let written = await socket.first(20)
        let order = written.compactMap { text in (0..<20).first { text.contains("error number \($0).") } }
        #expect(order == Array(0..<20), "messages reach the socket in the order they were sent")
    }

    @Test func aSocketThatANewerOneReplacedIsClosedAndReadNoMore() async {
        let page = session(maxQueued: 256)
        let first = RecordingSocket()
        let older = await page.attach(since: 0, socket: first)
        let newer = await page.attach(since: 0, socket: RecordingSocket())
        await first.closed()
        #expect(await !page.receive("not json", from: older), "the replaced socket's messages are not read")
        #expect(await page.receive("not json", from: newer))
    }

    @Test func aReconnectGetsTheNumberedMessagesItMissed() async throws {
        let page = session(maxQueued: 256)
        var registry = SceneRegistry()
        registry.addScene(id: "x", source: #"{ "modules": [ { "id": "t", "type": "TextModule", "params": { "title": "Hi" } } ] }"#)
        let scene = try await registry.assemble("x", for: SceneContext(viewer: nil), host: page.host)
        await page.install(scene, baseline: await scene.takeBaseline())
        _ = await page.attach(since: 0, socket: RecordingSocket())
        for _ in 0..<3 { await page.receive(#"{"type":"resync"}"#) }  // three numbered messages
        let socket = RecordingSocket()
        _ = await page.attach(since: 1, socket: socket)
        let replayed = await socket.first(2)
        #expect(replayed.allSatisfy { $0.contains(#""type":"reset""#) })
        #expect(replayed.map { $0.contains(#""sequence":2"#) || $0.contains(#""sequence":3"#) } == [true, true])
    }

    @Test func visibilityReportsCountOncePerNodeAndOnlyForWhatThePageShows() async throws {
        let page = session(maxQueued: 4096)
        let journal = ImpressionJournal()
        var registry = SceneRegistry()
        registry.impressionSink = journal
        registry.impressionRule = ImpressionRule(minimumDuration: .zero)
        registry.addScene(id: "x", source: #"{ "modules": [ { "id": "t", "type": "TextModule", "params": { "title": "Hi" } } ] }"#)
        let scene = try await registry.assemble("x", for: SceneContext(viewer: nil), host: page.host)
        await page.install(scene, baseline: await scene.takeBaseline())
        let socket = RecordingSocket()
        _ = await page.attach(since: 0, socket: socket)
        // A forged page floods reports: of its one module, and of nodes it does not show.
        for _ in 0..<50 { await page.receive(#"{"type":"visibility","node":"t","fraction":1}"#) }
        await page.receive(#"{"type":"visibility","node":"elsewhere","fraction":1}"#)
        await page.receive(#"{"type":"visibility","node":"t/title","fraction":1}"#)
        #expect(journal.records(.impression).map(\.module) == ["t"])
        let refusals = await socket.first(2)
        #expect(refusals.allSatisfy { $0 == #"{"message":"That is not on this page; nothing was counted.","type":"refused"}"# }, "\(refusals)")
    }
}

/// A page socket that keeps what is written, for a test to read in order; but resume
/// tokens (sent on attach and after actions; `ResumeTests` reads them).
private final class RecordingSocket: PageSocket {
    private let (stream, continuation) = AsyncStream.makeStream(of: String.self)
    private let (closes, closing) = AsyncStream.makeStream(of: Void.self)

    func send(_ text: String) {
        if !text.hasPrefix(#"{"applied":"#) { continuation.yield(text) }
    }
    var unwritten: Int { 0 }
    func close() {
        continuation.finish()
        closing.finish()
    }

    /// The first `count` messages written (fewer if the socket closed before).
    func first(_ count: Int) async -> [String] {
        var written: [String] = []
        for await text in stream {
            written.append(text)
            if written.count == count { break }
        }
        return written
    }

    /// Returns once the session closed the socket.
    func closed() async {
        for await _ in closes {}
    }
}

/// A page socket that writes nothing: a page that reads nothing, so what is sent piles up.
private final class StalledSocket: PageSocket {
    private let sent = Mutex(0)
    private let (closes, closing) = AsyncStream.makeStream(of: Void.self)

    func send(_ text: String) { sent.withLock { $0 += 1 } }
    var unwritten: Int { sent.withLock { $0 } }
    func close() { closing.finish() }

    func closed() async {
        for await _ in closes {}
    }
}
