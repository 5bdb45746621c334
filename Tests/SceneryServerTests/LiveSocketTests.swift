import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Scenery
import SceneryPageProtocol
import SceneryServerTesting
import Synchronization
import Testing
import WSClient

@testable import SceneryServer

/// What a page socket received, and a way to wait for it: each message (and the socket's
/// end) checks the waiting conditions; nothing polls. (A recursive `NSRecursiveLock`, which
/// the thread sanitizer understands, so a condition can read what arrived while the lock is
/// held.)
final class Received: @unchecked Sendable {
    private let lock = NSRecursiveLock()
    private var messages: [JSONValue] = []
    private var ended = false
    private var waiters: [(number: Int, condition: @Sendable (Received) -> Bool, resume: CheckedContinuation<Void, Never>)] = []
    private var nextWaiter = 0

    func append(_ text: String) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { return }
        lock.withLock { messages.append(value) }
        wake()
    }

    /// The socket closed: nothing more will arrive.
    func end() {
        lock.withLock { ended = true }
        wake()
    }

    var all: [JSONValue] { lock.withLock { messages } }

    var hasEnded: Bool { lock.withLock { ended } }

    func of(_ type: String) -> [JSONValue] { all.filter { $0["type"]?.stringValue == type } }

    /// Waits until `condition` holds, the socket ends, or `bound` passes (a safety bound for
    /// a wait on the server closing the socket, which the WebSocket client does not always
    /// report while the test's handler runs; tests assert on what arrived, not on time).
    func wait(until condition: @escaping @Sendable (Received) -> Bool, bound: Duration = .seconds(5)) async {
        let number = lock.withLock { () -> Int in
            nextWaiter += 1
            return nextWaiter
        }
        let timer = Task { [weak self] in
            try? await Task.sleep(for: bound)
            self?.release(number)
        }
        await withCheckedContinuation { continuation in
            let ready = lock.withLock { () -> Bool in
                if ended || condition(self) { return true }
                waiters.append((number, condition, continuation))
                return false
            }
            if ready { continuation.resume() }
        }
        timer.cancel()
    }

    /// Ends one wait, if it is still waiting.
    private func release(_ number: Int) {
        let waiting = lock.withLock { () -> CheckedContinuation<Void, Never>? in
            guard let index = waiters.firstIndex(where: { $0.number == number }) else { return nil }
            return waiters.remove(at: index).resume
        }
        waiting?.resume()
    }

    private func wake() {
        let ready = lock.withLock { () -> [CheckedContinuation<Void, Never>] in
            var ready: [CheckedContinuation<Void, Never>] = []
            waiters.removeAll { waiter in
                guard ended || waiter.condition(self) else { return false }
                ready.append(waiter.resume)
                return true
            }
            return ready
        }
        for continuation in ready { continuation.resume() }
    }
}

/// One step of a conversation with a page socket.
enum Step: Sendable {
    /// Send a message of the page protocol.
    case send(PageProtocol.ClientMessage)
    /// Send text as it is: what a broken or hostile page would send.
    case sendText(String)
    /// Wait until what arrived satisfies the condition (or the socket closes).
    case waitUntil(@Sendable (Received) -> Bool)
    /// Do something elsewhere while the socket is open (another viewer acts).
    case run(@Sendable () async throws -> Void)
}

@Suite(.timeLimit(.minutes(5))) struct LiveSocketTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    init(fixture: ServerFixture) { self.fixture = fixture }

    /// Opens a scene page and returns its session id.
    func openPage(_ client: some HTTPTestClient, _ uri: String, cookie: String? = nil) async throws -> String {
        let response = try await client.execute(uri: uri, method: .get, headers: cookie.map { [.cookie: $0] } ?? [:])
        return try #require(String(buffer: response.body).sessionID)
    }

    /// Connects to a page's socket and takes the steps in order; then closes the socket
    /// (unless the server did). Returns what arrived and how the server closed the socket.
    ///
    /// For tests of the wire itself: text that is no message, a socket of another origin,
    /// sign-in or session, a `since` or a resume token of the test's choosing, a page moved
    /// to another server. Everything a page does as a person would goes through the
    /// server's test kit (`server.test(_:_:)`), as an outside team's tests would.
    func converse(
        _ client: some HTTPTestClient, session: String, since: Int = 0, cookie: String? = nil, origin: String? = nil, resume: String? = nil,
        kinds: String? = nil, _ steps: [Step]
    ) async throws -> (received: Received, close: WebSocketCloseFrame?) {
        let received = Received()
        var headers = ServerFixture.headers(port: client.port, cookie: cookie)
        if let origin { headers[.origin] = origin }
        var close: WebSocketCloseFrame?
        do {
            close = try await client.ws(
                "/live?session=\(session)&since=\(since)&protocol=1\(resume.map { "&resume=\($0)" } ?? "")\(kinds.map { "&kinds=\($0)" } ?? "")",
                configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: headers)
            ) { inbound, outbound, _ in
                let reader = Task {
                    defer { received.end() }
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        if case .text(let text) = message { received.append(text) }
                    }
                }
                for step in steps {
                    switch step {
                    case .send(let message):
                        if !received.hasEnded { try await outbound.write(.text(try message.jsonText())) }
                    case .sendText(let text):
                        if !received.hasEnded { try await outbound.write(.text(text)) }
                    case .waitUntil(let condition):
                        await received.wait(until: condition)
                    case .run(let action):
                        try await action()
                    }
                }
                if received.hasEnded {
                    _ = await reader.result
                } else {
                    reader.cancel()
                    try? await outbound.close(.normalClosure, reason: nil)
                }
            }
        } catch is CancellationError where !Task.isCancelled {
            // Once the reader is cancelled, the WebSocket client can end its close handshake
            // with that reader's `CancellationError` (seen under load in CI). The socket is
            // closed either way, and what was received is all the test asks for.
        }
        return (received, close)
    }

    /// Sends `messages`, then waits until `until` holds (or the socket closes).
    func talk(
        _ client: some HTTPTestClient, session: String, since: Int = 0, cookie: String? = nil, origin: String? = nil, resume: String? = nil,
        kinds: String? = nil, send messages: [PageProtocol.ClientMessage] = [], until: @escaping @Sendable (Received) -> Bool
    ) async throws -> Received {
        try await converse(
            client, session: session, since: since, cookie: cookie, origin: origin, resume: resume, kinds: kinds,
            messages.map(Step.send) + [.waitUntil(until)]
        ).received
    }

    @Test(arguments: PageTestTransport.allCases)
    func aLikeComesBackAsNumberedDOMOperationsWithServerHTML(transport: PageTestTransport) async throws {
        try await fixture.server.test(transport) { client in
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2", format: .html)
            let answered = try await bob.waitForAnswer(to: try await bob.tap("blogs/blog.26.like"))
            let patches = answered.messages.compactMap { message -> (Int, [PageProtocol.DOMOperation])? in
                guard case .patch(let sequence, let operations) = message else { return nil }
                return (sequence, operations)
            }
            #expect(patches.map(\.0) == [1], "one numbered patch")
            let operations = patches.flatMap(\.1)
            #expect(operations.count == 2)
            #expect(operations.allSatisfy { if case .replace = $0 { true } else { false } }, "\(operations)")
            #expect(operations.contains { $0.html?.contains(">Unlike</button>") == true })
            #expect(try await fixture.store.blog(26, viewer: "2").likedByViewer, "the like was saved")
        }
    }

    @Test(arguments: PageTestTransport.allCases)
    func aConfirmationIsAskedAndItsAnswerDecides(transport: PageTestTransport) async throws {
        try await fixture.server.test(transport) { client in
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2", format: .html)
            // Each answer is sent once its question has arrived, never on a timer.
            let declined = try await bob.tap("info/follow")
            let asked = try await bob.waitUntil("the unfollow question") { $0.question != nil }
            #expect(asked.question?.title == "Unfollow Alice Liddell?")
            #expect(asked.question?.isDestructive == true, "the scene marks unfollowing destructive")
            try await bob.answer(false)
            #expect(try await bob.waitForAnswer(to: declined).refusals.isEmpty)
            #expect(try await fixture.store.profile(of: "1", viewer: "2").viewerFollows == true, "declined: still following")
            let accepted = try await bob.tap("info/follow")
            try await bob.waitUntil("the second question") { $0.question != nil }
            try await bob.answer(true)
            let done = try await bob.waitForAnswer(to: accepted)
            #expect(done.refusals.isEmpty, "\(done.refusals)")
            #expect(done.operations.contains { $0.target == "info/follow" || $0.html?.contains(">Follow</button>") == true }, "the page shows it")
            #expect(try await fixture.store.profile(of: "1", viewer: "2").viewerFollows == false, "accepted: unfollowed")
        }
    }

    @Test(arguments: PageTestTransport.allCases)
    func scrollingMovesTheWindowWithRemovalsAndARenumberedSection(transport: PageTestTransport) async throws {
        try await fixture.server.test(transport) { client in
            let page = try await client.open("user-profile", arguments: ["user": "1"], format: .html)
            let html = try #require(page.state.html)
            #expect(html.contains(#"data-first-row="0" data-total-rows="27""#), "the page starts with a window of the blogs")
            // The scene's first page (pageSize 10), not the server's whole window of 60.
            #expect(html.components(separatedBy: #"<li aria-posinset=""#).count - 1 == 10)
            #expect(html.contains("blogs/blog.18.title") && !html.contains("blogs/blog.17.title"))
            await page.send(.window(module: "blogs", start: 5))
            let operations = try await page.waitUntil("the moved window") { !$0.operations.isEmpty }.operations
            #expect(operations.filter { if case .remove = $0 { true } else { false } }.count == 5, "rows 0–4 leave")
            #expect(operations.filter { if case .insert = $0 { true } else { false } }.count == 17, "rows 10–26 come: a window of 60 reaches the end")
            #expect(operations.last == .window("blogs/all", firstRow: 5, totalRows: 27))
            #expect(operations.count == 23)
        }
    }

    @Test(arguments: PageTestTransport.allCases)
    func navigationTellsThePageWhereToGo(transport: PageTestTransport) async throws {
        try await fixture.server.test(transport) { client in
            let page = try await client.open("user-profile", arguments: ["user": "1"], format: .html)
            try await page.tap("blogs/blog.27")
            let told = try await page.waitUntil("a navigation") { !$0.navigations.isEmpty }
            #expect(told.navigations == ["/scenes/blog-detail?blog=27"])
        }
    }

    @Test(arguments: [
        #"{"type":"event","node":"drafts/draft.1"}"#,  // a draft control, for someone who is not the owner
        #"{"type":"event","node":"drafts/compose","values":{"title":"Mallory","body":"was here"}}"#,  // the owner's editor
        #"{"type":"event","node":"drafts/draft.1.publish"}"#,
        #"{"type":"event","node":"nothing/here"}"#,
        #"{"type":"event"}"#,
        #"{"type":"event","node":"blogs/blog.27.like","payload":{"blog":1}}"#.replacingOccurrences(of: "27", with: "9999"),
        #"not json at all"#,
        #"{"type":"answer","question":77,"accept":true}"#,
        #"{"type":"launch"}"#,
        #"{"type":"window","module":"nothing","start":3}"#,
        #"{"type":"window","module":"blogs","start":-1}"#,
        #"{"type":"window","module":"blogs"}"#,
    ])
    func forgedMessagesAreRefusedAndTheSessionCarriesOn(message: String) async throws {
        let bob = fixture.cookie(for: "2")
        try await fixture.server.application().test(.live) { client in
            let session = try await openPage(client, "/scenes/user-profile?user=1", cookie: bob)
            let received = try await converse(
                client, session: session, cookie: bob, [.sendText(message), .send(.event(node: "blogs/blog.26.like")), .waitUntil { !$0.of("patch").isEmpty }]
            ).received
            #expect(received.of("refused").count == 1, "\(received.all)")
            #expect(received.of("patch").count == 1, "the next, valid event still works")
            for value in received.all { #expect(!value.compactJSON.contains("Through the looking glass")) }
        }
    }

    @Test func aFloodOfEventsIsRefusedAtABoundedCost() async throws {
        // The allowance refills slowly enough that however long the flood takes to send on
        // a busy machine, what is beyond the burst is refused.
        let fixture = try ServerFixture { $0.eventsPerSecond = 0.01 }
        try await fixture.server.test(.live) { client in
            let page = try await client.open("user-profile", arguments: ["user": "1"], format: .html)
            for _ in 0..<60 { await page.send(.event(node: "info/followers")) }
            let refused = try await page.waitUntil("30 refusals") { $0.refusals.count >= 30 }
            #expect(refused.refusals.count == 30, "a burst beyond the allowance is refused")
            #expect(refused.refusals.first == "Too many actions at once; wait a moment.")
        }
    }

    /// A scroll through a long list sends window moves in bursts: none is refused with a
    /// message (the page would show it while the person only scrolled), a flood of them is
    /// dropped without a word, and they leave the person's allowance for controls whole.
    @Test func scrollingIsNeitherRefusedNorSpendsTheAllowanceForControls() async throws {
        let fixture = try ServerFixture {
            $0.eventsPerSecond = 0.01
            $0.eventBurst = 2
        }
        try await fixture.server.test(.live) { client in
            let page = try await client.open("user-profile", arguments: ["user": "1"], format: .html)
            for start in 0..<100 { await page.send(.window(module: "blogs", start: start)) }
            let answered = try await page.waitForAnswer(to: try await page.tap("info/followers"))
            #expect(answered.refusals.isEmpty, "\(answered.refusals)")
        }
    }

    @Test func aPageThatAnswersNoPingIsDisconnected() async throws {
        let fixture = try ServerFixture { $0.pingInterval = .milliseconds(100) }
        let sockets = LiveSocketTests(fixture: fixture)
        try await fixture.server.application().test(.live) { client in
            let session = try await sockets.openPage(client, "/scenes/user-profile?user=1")
            // A client that upgrades, then reads nothing and answers nothing.
            let connection = try RawConnection(port: client.port!)
            connection.send(RawConnection.upgradeRequest(to: "/live?session=\(session)&since=0&protocol=1"))
            let (text, closed) = await connection.readUntilClosed()
            #expect(text.hasPrefix("HTTP/1.1 101"), "the socket opened: \(text.prefix(80))")
            #expect(closed, "a socket that answers no ping is let go; the page would reconnect")
        }
    }

    @Test func aBurstOfMessagesLargerThanTheInboxIsReadInFull() async throws {
        try await fixture.server.application().test(.live) { client in
            let session = try await openPage(client, "/scenes/user-profile?user=1")
            // More than the socket's inbox holds before it stops reading (64), fewer than
            // make a page abusive (100 refused in a row): none is lost.
            let burst = Array(repeating: Step.sendText("not json"), count: 90)
            let received = try await converse(client, session: session, burst + [.waitUntil { $0.of("refused").count >= 90 }]).received
            #expect(received.of("refused").count == 90)
        }
    }

    @Test func anUpgradeToAnotherPathOrWithoutASessionIsRefused() async throws {
        try await fixture.server.application().test(.live) { client in
            for target in ["/elsewhere?session=1", "/live"] {
                let connection = try RawConnection(port: client.port!)
                connection.send(RawConnection.upgradeRequest(to: target))
                let (text, closed) = await connection.readUntilClosed()
                #expect(text.hasPrefix("HTTP/1.1 400"), "\(target): \(text.prefix(80))")
                #expect(closed)
            }
        }
    }

    @Test func hugeFramesAndInvalidUTF8CloseThatSocketOnlyAndThePageReconnects() async throws {
        try await fixture.server.application().test(.live) { client in
            let session = try await openPage(client, "/scenes/user-profile?user=1")
            let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20, additionalHeaders: ServerFixture.headers())
            // 100 KB in one frame: more than the server takes.
            let huge = try await client.ws("/live?session=\(session)&since=0&protocol=1", configuration: configuration) { inbound, outbound, _ in
                try await outbound.write(.text(String(repeating: "x", count: 100_000)))
                for try await _ in inbound.messages(maxSize: 1 << 20) {}
            }
            #expect(huge?.closeCode == .messageTooLarge)
            // Bytes that are not UTF-8 in a text frame.
            let invalid = try await client.ws("/live?session=\(session)&since=0&protocol=1", configuration: configuration) { inbound, outbound, _ in
                var bytes = ByteBuffer()
                bytes.writeBytes([0x7B, 0xFF, 0xFE, 0x7D])
                try await outbound.write(.custom(.init(fin: true, opcode: .text, data: bytes)))
                for try await _ in inbound.messages(maxSize: 1 << 20) {}
            }
            #expect(invalid?.closeCode == .dataInconsistentWithMessage)
            // The same page carries on.
            let received = try await talk(
                client, session: session, send: [.event(node: "sections#drafts"), .event(node: "info/blogs")]
            ) {
                !$0.of("refused").isEmpty
            }
            #expect(received.of("refused").count == 1, "no drafts tab for a signed-out viewer; refused, not crashed")
            #expect(await fixture.server.openPages == 1)
        }
    }

    /// Frames RFC 6455 forbids a client, each on a socket of its own.
    static let forbiddenFrames: [(name: String, frames: [UInt8])] = [
        ("an unmasked frame", RawConnection.frame(opcode: 0x1, masked: false, payload: Array(#"{"type":"resync"}"#.utf8))),
        ("a reserved bit set", RawConnection.frame(opcode: 0x1, reserved: 0b100, payload: Array(#"{"type":"resync"}"#.utf8))),
        ("a continuation with no start", RawConnection.frame(opcode: 0x0, payload: Array("x".utf8))),
        (
            "65 fragments",
            RawConnection.frame(opcode: 0x1, fin: false, payload: [0x7B])
                + (0..<64).flatMap { RawConnection.frame(opcode: 0x0, fin: $0 == 63, payload: [0x20]) }
        ),
    ]

    @Test(arguments: 0..<4)
    func aFrameTheRFCForbidsIsAnsweredWithACloseFrameOf1002(index: Int) async throws {
        let (name, frames) = Self.forbiddenFrames[index]
        try await fixture.server.application().test(.live) { client in
            let session = try await openPage(client, "/scenes/user-profile?user=1")
            let connection = try RawConnection(port: try #require(client.port))
            connection.send(RawConnection.upgradeRequest(to: "/live?session=\(session)&since=0&protocol=1"))
            connection.send(bytes: frames)
            let (bytes, closed) = await connection.readBytesUntilClosed()
            #expect(String(decoding: bytes.prefix(12), as: UTF8.self) == "HTTP/1.1 101", "\(name): upgraded")
            // An unmasked close frame from the server: 0x88, its length, then 1002 (0x03EA).
            let close = bytes.indices.first { bytes[$0] == 0x88 && $0 + 3 < bytes.count && bytes[$0 + 2] == 0x03 && bytes[$0 + 3] == 0xEA }
            #expect(close != nil, "\(name): closed with a close frame of 1002, not a dropped connection")
            #expect(closed, "\(name): and the connection ends")
            #expect(await fixture.server.openPages == 1, "the page itself lives on and may reconnect")
        }
    }

    @Test func textThatIsNotUTF8IsAnsweredWithACloseFrameOf1007AndNothingIsStored() async throws {
        let alice = fixture.cookie(for: "1")
        let before = try await fixture.store.drafts(of: "1", viewer: "1", page: .init(limit: 100)).items
        try await fixture.server.application().test(.live) { client in
            let session = try await openPage(client, "/scenes/user-profile?user=1", cookie: alice)
            let connection = try RawConnection(port: try #require(client.port))
            var request = RawConnection.upgradeRequest(to: "/live?session=\(session)&since=0&protocol=1")
            request = request.replacingOccurrences(of: "\r\n\r\n", with: "\r\nCookie: \(alice)\r\n\r\n")
            connection.send(request)
            // A form's text with bytes that are no UTF-8 (0xFF 0xFE), in a text frame.
            let message = Array(#"{"type":"event","node":"drafts/compose","values":{"title":""#.utf8) + [0xFF, 0xFE] + Array(#"","body":""}}"#.utf8)
            connection.send(bytes: RawConnection.frame(opcode: 0x1, payload: message))
            let (bytes, closed) = await connection.readBytesUntilClosed()
            #expect(String(decoding: bytes.prefix(12), as: UTF8.self) == "HTTP/1.1 101", "upgraded")
            // An unmasked close frame from the server: 0x88, its length, then 1007 (0x03EF).
            let close = bytes.indices.first { bytes[$0] == 0x88 && $0 + 3 < bytes.count && bytes[$0 + 2] == 0x03 && bytes[$0 + 3] == 0xEF }
            #expect(close != nil, "closed with 1007 (invalid frame payload data), not a dropped connection")
            #expect(closed)
            #expect(await fixture.server.openPages == 1, "the page itself lives on and may reconnect")
        }
        #expect(try await fixture.store.drafts(of: "1", viewer: "1", page: .init(limit: 100)).items == before, "nothing stored")
    }

    @Test func aSocketFromAnotherOriginIsNotUpgraded() async throws {
        try await fixture.server.application().test(.live) { client in
            let session = try await openPage(client, "/scenes/user-profile?user=1")
            await #expect(throws: WebSocketClientError.self) {
                _ = try await talk(client, session: session, origin: "http://evil.example", send: []) { _ in true }
            }
        }
    }

    @Test func aSocketWithAnotherSignInIsClosed() async throws {
        let bob = fixture.cookie(for: "2")
        try await fixture.server.application().test(.live) { client in
            let session = try await openPage(client, "/scenes/user-profile?user=1", cookie: bob)
            let (received, close) = try await converse(
                client, session: session, cookie: fixture.cookie(for: "1"),
                [.send(.event(node: "blogs/blog.27.like")), .waitUntil { _ in false }])
            #expect(received.all.isEmpty, "nothing is sent to another viewer")
            if let close { #expect(close.closeCode == .policyViolation, "the server closed the socket, saying why") }
            #expect(try await fixture.store.blog(27, viewer: "1").likedByViewer == false)
        }
    }

    @Test func aReconnectReplaysWhatThePageMissed() async throws {
        try await fixture.server.application().test(.live) { client in
            let session = try await openPage(client, "/scenes/user-profile?user=1", cookie: fixture.cookie(for: "1"))
            let cookie = fixture.cookie(for: "1")
            // Select the drafts tab, then drop the connection.
            let first = try await talk(client, session: session, cookie: cookie, send: [.event(node: "sections#drafts")]) {
                !$0.of("patch").isEmpty
            }
            #expect(first.of("patch").first?["sequence"] == 1)
            // A page that missed message 1 gets it again; the scene kept the selected tab.
            let replay = try await talk(client, session: session, since: 0, cookie: cookie, send: []) { !$0.of("patch").isEmpty }
            #expect(replay.of("patch").first?["sequence"] == 1)
            // One that has it gets nothing more; the drafts are on the page.
            let caughtUp = try await talk(client, session: session, since: 1, cookie: cookie, send: [.resync]) { !$0.of("reset").isEmpty }
            #expect(caughtUp.of("patch").isEmpty)
            #expect(caughtUp.of("reset").first?["html"]?.stringValue?.contains("Through the looking glass") == true)
        }
    }

    @Test func anUnknownSessionIsToldToLoadThePageAgain() async throws {
        try await fixture.server.application().test(.live) { client in
            let (received, close) = try await converse(client, session: "0123456789abcdef", [.waitUntil { _ in false }])
            #expect(received.all.isEmpty)
            // The WebSocket client does not always surface the server's close frame while the
            // handler runs; when it does, it must be this one.
            if let close {
                #expect(close.closeCode == .unknown(4404), "closed with the code that makes the page load again")
                #expect(close.reason == "This page's scene has ended; load the page again.")
            }
        }
    }

    @Test func theSixtyFifthWaitingActionIsRefusedAndScrollingIsNotHeldBack() async throws {
        let fixture = try ServerFixture {
            $0.eventBurst = 500
            $0.eventsPerSecond = 1000
        }
        try await fixture.server.test(.live) { client in
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2", format: .html)
            // The unfollow question holds the queue: its event waits for an answer.
            try await bob.tap("info/follow")
            try await bob.waitUntil("the unfollow question") { $0.question != nil }
            for _ in 0..<(PageSession.queuedActions + 1) { try await bob.tap("blogs/blog.26.like") }
            try await bob.waitUntil("a refusal") { !$0.refusals.isEmpty }
            // A scroll while actions wait still moves the window.
            await bob.send(.window(module: "blogs", start: 5))
            let scrolled = try await bob.waitUntil("the scroll's patch") { !$0.operations.isEmpty }
            try await bob.answer(false)
            // The 65th like is refused at once; the liked blog scrolled out of the window, so the
            // likes that run after the answer may be refused too, once the test lasts long
            // enough to hear them (under load).
            let refusals = bob.state.refusals
            let tooMany = "Too many actions are waiting; wait for them to finish, then try again."
            #expect(refusals.first == tooMany && refusals.filter { $0 == tooMany }.count == 1, "\(refusals)")
            #expect(refusals.allSatisfy { [tooMany, "That control is not on this page."].contains($0) }, "\(refusals)")
            let first = scrolled.messages.first { if case .patch = $0 { true } else { false } }
            guard case .patch(_, let operations)? = first else { return }
            #expect(operations.contains { if case .window = $0 { true } else { false } }, "the first patch is the scroll's, not a like's: \(operations)")
        }
    }
}
