import Foundation
import Logging
import Scenery
import SceneryLive
import SceneryPageProtocol
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

    /// Installs a scene of one text module (`t`) on `page`.
    static func installText(_ title: String = "Hi", on page: PageSession) async throws {
        var registry = SceneRegistry()
        registry.addScene(id: "x", source: #"{ "modules": [ { "id": "t", "type": "TextModule", "params": { "title": "\#(title)" } } ] }"#)
        let scene = try await registry.assemble("x", for: SceneContext(viewer: nil), host: page.host)
        await page.install(scene, baseline: await scene.takeBaseline())
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

    @Test func anOpenQuestionOutlivesItsSocketAndOnlyThePagesEndAnswersItNo() async {
        let page = session(maxQueued: 256)
        let socket = RecordingSocket()
        let connection = await page.attach(since: 0, socket: socket)
        let answer = Task { await page.confirm(Confirmation(title: "Unfollow Alice Liddell?", message: nil, confirmLabel: "Unfollow")) }
        #expect(await socket.first(1).first?.contains(#""type":"confirm""#) == true)
        await page.detach(connection)
        let again = RecordingSocket()
        _ = await page.attach(since: 0, socket: again)
        #expect(await again.first(1).first?.contains(#""title":"Unfollow Alice Liddell?""#) == true, "asked again on the new socket")
        await page.end()
        #expect(await answer.value == false, "nobody is left to answer")
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
        try await Self.installText(on: page)
        _ = await page.attach(since: 0, socket: RecordingSocket())
        await page.receive(.resync)  // numbered message 1: the whole scene
        await page.receive(.event(node: "t/nothing"))  // refused: not numbered
        let socket = RecordingSocket()
        _ = await page.attach(since: 0, socket: socket)
        let replayed = await socket.first(1)
        #expect(replayed.count == 1 && replayed[0].contains(#""type":"reset""#) && replayed[0].contains(#""sequence":1"#), "\(replayed)")
    }

    @Test func aWholeSceneReplacesWhatWasKeptForReplay() async throws {
        let page = session(maxQueued: 256)
        try await Self.installText(on: page)
        _ = await page.attach(since: 0, socket: RecordingSocket())
        for _ in 0..<3 { await page.receive(.resync) }  // three numbered whole scenes
        let socket = RecordingSocket()
        _ = await page.attach(since: 1, socket: socket)
        await page.showErrors("after the replay")
        let replayed = await socket.first(2)
        #expect(replayed.first?.contains(#""sequence":3"#) == true, "the newest whole scene is all a page that missed 2 and 3 needs: \(replayed)")
        #expect(replayed.last?.contains("after the replay") == true, "and nothing else was replayed")
    }

    @Test func messagesOlderThanTheReplayAgeAreLetGoAndAReconnectGetsTheWholeSceneAnew() async throws {
        let page = session(maxQueued: 256)
        try await Self.installText(on: page)
        _ = await page.attach(since: 0, socket: RecordingSocket())
        await page.receive(.resync)  // numbered message 1, kept for replay
        #expect(await page.keptMessageCount == 1)
        let configuration = SceneryServer.Configuration(port: 0, cookieSecret: Array(repeating: 1, count: 32))
        #expect(await !page.tidy(now: .now), "a page with its socket has not expired")
        #expect(await page.keptMessageCount == 1, "a message younger than the age is kept")
        #expect(await !page.tidy(now: .now + configuration.replayedAge + .seconds(1)))
        #expect(await page.keptMessageCount == 0, "past the age it is let go: an idle page keeps no message")

        let socket = RecordingSocket()
        _ = await page.attach(since: 0, socket: socket)
        let sent = await socket.first(1)
        #expect(
            sent.count == 1 && sent[0].contains(#""type":"reset""#) && sent[0].contains(#""sequence":2"#),
            "a new whole scene, not the let-go message 1: \(sent)")
    }

    @Test func aPageWithoutASocketKeepsItsMessagesPastTheAgeForItsReconnect() async throws {
        let page = session(maxQueued: 256)
        try await Self.installText(on: page)
        let connection = await page.attach(since: 0, socket: RecordingSocket())
        await page.receive(.resync)  // numbered message 1
        await page.detach(connection)
        let configuration = SceneryServer.Configuration(port: 0, cookieSecret: Array(repeating: 1, count: 32))
        _ = await page.tidy(now: .now + configuration.replayedAge + .seconds(1))
        #expect(await page.keptMessageCount == 1, "what a page without a socket was sent waits for its reconnect")

        let socket = RecordingSocket()
        _ = await page.attach(since: 0, socket: socket)
        let replayed = await socket.first(1)
        #expect(replayed.count == 1 && replayed[0].contains(#""sequence":1"#), "the kept message is replayed: \(replayed)")
    }

    @Test func resyncsBeyondTheirRateAreRefusedAndAPageThatReadsNothingIsLetGoByBytes() async throws {
        var configuration = SceneryServer.Configuration(port: 0, cookieSecret: Array(repeating: 1, count: 32))
        configuration.maxQueuedBytes = 2_500
        let page = PageSession(
            id: "s", viewer: nil, sceneID: "x", arguments: [:], renderer: HTMLRenderer(), configuration: configuration, logger: Logger(label: "test"))
        try await Self.installText(String(repeating: "long words ", count: 100), on: page)
        let socket = StalledSocket()
        _ = await page.attach(since: 0, socket: socket)
        for _ in 0..<10 { await page.receive(.resync) }
        await socket.closed()
        #expect(await !page.isAttached, "a page that asks for the whole scene and reads nothing is let go")
        #expect(socket.unwrittenBytes <= 2_500, "no more than the bound was queued for it: \(socket.unwrittenBytes)")
        #expect(socket.unwritten < 10, "the socket went before every resync was answered")

        let reading = RecordingSocket()
        _ = await page.attach(since: 0, socket: reading)
        var refusals = 0
        for _ in 0..<10 { await page.receive(.resync) }
        for text in await reading.first(11) where text.contains("Too many requests for the whole page") { refusals += 1 }
        #expect(refusals >= 5, "resyncs past a few a second are refused, not each answered with the whole scene")
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
        for _ in 0..<50 { await page.receive(.visibility(node: "t", fraction: 1)) }
        await page.receive(.visibility(node: "elsewhere", fraction: 1))
        await page.receive(.visibility(node: "t/title", fraction: 1))
        #expect(journal.records(.impression).map(\.module) == ["t"])
        // Declined quietly: a report is the page's bookkeeping, not something the person did,
        // so no toast. The next thing the page hears is the answer to what it asks next.
        await page.receive(.visibility(node: NodeID(String(repeating: "n", count: 600)), fraction: 1))
        await page.receive(.resync)
        let next = await socket.first(1)
        #expect(next.count == 1 && next.allSatisfy { $0.contains(#""type":"reset""#) }, "\(next)")
    }
}

/// Exactly once on the page's side, and numbers from the page checked where they enter.
@Suite(.timeLimit(.minutes(5))) struct PageSessionActionTests {
    /// A button that counts its taps, with the action key each ran under.
    actor Counter: Module {
        static let descriptor = ModuleDescriptor(type: "Counter", summary: "Counts taps.", events: ["counter.tap"])
        let tally: Tally
        init(tally: Tally) { self.tally = tally }
        func load(_ request: LoadRequest) async throws {}
        func render() -> ViewNode { .button("tap", title: "Tap", sends: EventDescriptor("counter.tap")) }
        func handle(_ event: Event) async -> EventDisposition {
            // A write of a store would take a while: let other tasks in before counting.
            for _ in 0..<20 { await Task.yield() }
            tally.taps.withLock { $0.append(WriteContext.current.action?.rawValue) }
            return .handled
        }
    }

    final class Tally: Sendable {
        let taps = Locked<[String?]>([])
    }

    func page(viewer: String?, ledger: any ActionLedger = MemoryActionLedger(), tally: Tally) async throws -> PageSession {
        var configuration = SceneryServer.Configuration(port: 0, cookieSecret: Array(repeating: 1, count: 32))
        configuration.eventsPerSecond = 1_000_000
        configuration.eventBurst = 1_000_000
        configuration.actionLedger = ledger
        let page = PageSession(
            id: "s", viewer: viewer, sceneID: "x", arguments: [:], renderer: HTMLRenderer(), configuration: configuration,
            logger: Logger(label: "test"))
        var registry = SceneRegistry()
        registry.register(Counter.self) { _, _ in Counter(tally: tally) }
        registry.addScene(id: "x", source: #"{ "modules": [ { "id": "c", "type": "Counter" } ] }"#)
        let scene = try await registry.assemble("x", for: SceneContext(viewer: viewer), host: page.host)
        await page.install(scene, baseline: await scene.takeBaseline())
        return page
    }

    static func event(_ key: String) -> PageProtocol.ClientMessage { .event(node: "c/tap", action: .named(key)) }

    @Test func oneActionSentFourTimesAtOnceRunsOnce() async throws {
        let tally = Tally()
        let page = try await page(viewer: "2", tally: tally)
        let socket = AppliedSocket()
        _ = await page.attach(since: 0, socket: socket)
        let keys = (0..<60).map { "burst-\($0)-key" }
        for key in keys {
            await withTaskGroup(of: Void.self) { group in
                for _ in 0..<4 { group.addTask { await page.receive(Self.event(key)) } }
            }
        }
        await socket.waitUntilApplied(Set(keys))
        let ran = tally.taps.withLock { $0 }
        #expect(ran.count == keys.count, "each action ran once, not once per copy")
        #expect(Set(ran.compactMap { $0 }) == Set(keys.map { "u2:\($0)" }), "under the viewer's own key")
    }

    @Test func aKeyAnotherViewerUsedDoesNotStopThisViewersAction() async throws {
        let ledger = MemoryActionLedger()
        // Alice's action under the key was applied (on a server that went away).
        try await ledger.claim(ActionKey(validating: "shared-key-1").scoped(toViewer: "1", visitor: nil))
        let tally = Tally()
        let bobs = try await page(viewer: "2", ledger: ledger, tally: tally)
        await bobs.restore(from: ResumeToken(session: "s", viewer: "2", scene: "x", arguments: [:], issued: 0, nonce: "nonce-of-bob"))
        let socket = AppliedSocket()
        _ = await bobs.attach(since: 0, socket: socket)
        await bobs.receive(Self.event("shared-key-1"))
        await socket.waitUntilApplied(["shared-key-1"])
        #expect(tally.taps.withLock { $0 } == ["u2:shared-key-1"], "Bob's action ran, recorded as his")
        // His own key, applied before he resumed, is not applied again.
        await bobs.receive(Self.event("bobs-key-22"))
        await socket.waitUntilApplied(["bobs-key-22"])
        let resumedAgain = try await page(viewer: "2", ledger: ledger, tally: tally)
        await resumedAgain.restore(from: ResumeToken(session: "t", viewer: "2", scene: "x", arguments: [:], issued: 0, nonce: "nonce-of-bob2"))
        try await ledger.claim(ActionKey(validating: "bobs-key-22").scoped(toViewer: "2", visitor: nil))
        let other = AppliedSocket()
        _ = await resumedAgain.attach(since: 0, socket: other)
        await resumedAgain.receive(Self.event("bobs-key-22"))
        await other.waitUntilApplied(["bobs-key-22"])
        #expect(tally.taps.withLock { $0 }.count == 2, "the key the ledger holds as Bob's is answered, not run")
    }

    @Test(arguments: ["9223372036854775807", "9007199254740992", "-1", "1e3", "", "１"])
    func aSinceThatIsNoMessageNumberIsRefused(text: String) {
        #expect(throws: PageProtocol.BadSequence()) { try PageProtocol.sequence(fromQuery: Substring(text)) }
    }

    @Test func sinceAtTheLargestMessageNumberIsTakenAndNoneMeansZero() throws {
        #expect(try PageProtocol.sequence(fromQuery: "9007199254740991") == PageProtocol.largestSequence)
        #expect(try PageProtocol.sequence(fromQuery: nil) == 0)
        #expect(PageProtocol.BadSequence().message.utf8.count <= 123, "fits a close reason")
    }

    @Test func aResumedPageAtTheLargestNumberKeepsCountingWithoutOverflow() async throws {
        let page = PageSession(
            id: "s", viewer: nil, sceneID: "x", arguments: [:], renderer: HTMLRenderer(),
            configuration: SceneryServer.Configuration(port: 0, cookieSecret: Array(repeating: 1, count: 32)), logger: Logger(label: "test"))
        var registry = SceneRegistry()
        registry.addScene(id: "x", source: #"{ "modules": [ { "id": "t", "type": "TextModule", "params": { "title": "Hi" } } ] }"#)
        let scene = try await registry.assemble("x", for: SceneContext(viewer: nil), host: page.host)
        await page.installResumed(scene, baseline: await scene.takeBaseline(), since: Int.max)
        let socket = AppliedSocket()
        _ = await page.attach(since: PageProtocol.largestSequence, socket: socket)
        await page.receive(.resync)
        let numbers = await socket.sequences(2)
        #expect(numbers == [PageProtocol.largestSequence + 1, PageProtocol.largestSequence + 2])
    }
}

/// A page socket that keeps every message: the actions the page was told are done, and
/// the numbers of numbered messages.
private final class AppliedSocket: PageSocket {
    struct State {
        var applied: Set<String> = []
        var sequences: [Int] = []
        var waiters: [CheckedContinuation<Void, Never>] = []
    }
    private let state = Locked(State())

    func send(_ text: String) {
        let message = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8))
        let waiters = state.withLock { state in
            if case .array(let keys)? = message?["applied"] { state.applied.formUnion(keys.compactMap(\.stringValue)) }
            if let sequence = message?["sequence"]?.intValue { state.sequences.append(sequence) }
            defer { state.waiters = [] }
            return state.waiters
        }
        for waiter in waiters { waiter.resume() }
    }
    var unwritten: Int { 0 }
    var unwrittenBytes: Int { 0 }
    func close() {}

    /// Returns once every key in `keys` was reported applied.
    func waitUntilApplied(_ keys: Set<String>) async {
        await waitUntil { keys.isSubset(of: $0.applied) }
    }

    /// The first `count` message numbers sent.
    func sequences(_ count: Int) async -> [Int] {
        await waitUntil { $0.sequences.count >= count }
        return state.withLock { Array($0.sequences.prefix(count)) }
    }

    /// Returns once `condition` holds, woken by each message sent.
    private func waitUntil(_ condition: @escaping @Sendable (State) -> Bool) async {
        while !state.withLock({ condition($0) }) {
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let ready = state.withLock { state -> Bool in
                    if condition(state) { return true }
                    state.waiters.append(continuation)
                    return false
                }
                if ready { continuation.resume() }
            }
        }
    }
}

/// A page socket that keeps what is written, for a test to read in order; but resume
/// tokens (sent on attach and after actions; `ResumeTests` reads them).
final class RecordingSocket: PageSocket {
    private let (stream, continuation) = AsyncStream.makeStream(of: String.self)
    private let (closes, closing) = AsyncStream.makeStream(of: Void.self)

    func send(_ text: String) {
        if !text.hasPrefix(#"{"applied":"#) { continuation.yield(text) }
    }
    var unwritten: Int { 0 }
    var unwrittenBytes: Int { 0 }
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
    private let sent = Locked((messages: 0, bytes: 0))
    private let (closes, closing) = AsyncStream.makeStream(of: Void.self)

    func send(_ text: String) {
        sent.withLock {
            $0.messages += 1
            $0.bytes += text.utf8.count
        }
    }
    var unwritten: Int { sent.withLock { $0.messages } }
    var unwrittenBytes: Int { sent.withLock { $0.bytes } }
    func close() { closing.finish() }

    func closed() async {
        for await _ in closes {}
    }
}
