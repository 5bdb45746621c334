import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import NIOCore
import Scenery
import Synchronization
import Testing
import WSClient

@testable import SceneryServer

/// What a page socket received, and a way to wait for it. (`NSLock`, which the thread
/// sanitizer understands: the reader and the test read and write it at once.)
final class Received: @unchecked Sendable {
    private let lock = NSLock()
    private var messages: [JSONValue] = []

    func append(_ text: String) {
        guard let value = try? JSONDecoder().decode(JSONValue.self, from: Data(text.utf8)) else { return }
        lock.withLock { messages.append(value) }
    }

    var all: [JSONValue] { lock.withLock { messages } }

    func of(_ type: String) -> [JSONValue] { all.filter { $0["t"]?.stringValue == type } }
}

@Suite struct LiveSocketTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    /// Opens a scene page and returns its session id.
    func openPage(_ client: some TestClientProtocol, _ uri: String, cookie: String? = nil) async throws -> String {
        let response = try await client.execute(uri: uri, method: .get, headers: cookie.map { [.cookie: $0] } ?? [:])
        return try #require(String(buffer: response.body).sessionID)
    }

    /// Connects to a page's socket, sends `messages` one by one (`pause` apart), then reads
    /// until `until` holds or a few seconds pass.
    func talk(
        _ client: some TestClientProtocol, session: String, since: Int = 0, cookie: String? = nil, origin: String? = nil,
        send messages: [String], pause: Duration = .milliseconds(30), until: @escaping @Sendable (Received) -> Bool
    ) async throws -> Received {
        let received = Received()
        var headers = ServerFixture.headers(port: client.port, cookie: cookie)
        if let origin { headers[.origin] = origin }
        do {
            try await client.ws("/live?session=\(session)&since=\(since)", configuration: .init(maxFrameSize: 1 << 20, additionalHeaders: headers)) {
                inbound, outbound, _ in
                let reader = Task {
                    for try await message in inbound.messages(maxSize: 1 << 20) {
                        if case .text(let text) = message { received.append(text) }
                    }
                }
                for message in messages {
                    try await outbound.write(.text(message))
                    if pause > .zero { try await Task.sleep(for: pause) }
                }
                let deadline = ContinuousClock.now + .seconds(5)
                while !until(received), ContinuousClock.now < deadline { try await Task.sleep(for: .milliseconds(20)) }
                reader.cancel()
                try? await outbound.close(.normalClosure, reason: nil)
            }
        } catch is CancellationError where !Task.isCancelled {
            // Once the reader is cancelled, the WebSocket client can end its close handshake
            // with that reader's `CancellationError` (seen under load in CI). The socket is
            // closed either way, and what was received is all the test asks for.
        }
        return received
    }

    @Test func aLikeComesBackAsNumberedDOMOperationsWithServerHTML() async throws {
        let bob = fixture.cookie(for: "2")
        try await fixture.server.application().test(.live) { client in
            let session = try await openPage(client, "/scenes/user-profile?user=1", cookie: bob)
            let received = try await talk(client, session: session, cookie: bob, send: [#"{"t":"event","node":"blogs/blog.26.like"}"#]) {
                !$0.of("patch").isEmpty
            }
            let patch = try #require(received.of("patch").first)
            #expect(patch["seq"] == 1)
            guard case .array(let ops)? = patch["ops"] else {
                Issue.record("no operations in \(patch)")
                return
            }
            #expect(ops.map { $0["op"]?.stringValue } == ["replace", "replace"])
            #expect(ops.contains { $0["html"]?.stringValue?.contains(">Unlike</button>") == true })
            #expect(try await fixture.store.blog(26, viewer: "2").likedByViewer, "the like was saved")
        }
    }

    @Test func aConfirmationIsAskedAndItsAnswerDecides() async throws {
        let bob = fixture.cookie(for: "2")
        try await fixture.server.application().test(.live) { client in
            let session = try await openPage(client, "/scenes/user-profile?user=1", cookie: bob)
            let declined = try await talk(
                client, session: session, cookie: bob, send: [#"{"t":"event","node":"info/follow"}"#, #"{"t":"answer","id":1,"accept":false}"#]
            ) {
                !$0.of("confirm").isEmpty
            }
            #expect(declined.of("confirm").first?["title"] == "Unfollow Alice Liddell?")
            #expect(try await fixture.store.profile(of: "1", viewer: "2").viewerFollows == true, "declined: still following")
            let accepted = try await talk(
                client, session: session, since: 0, cookie: bob, send: [#"{"t":"event","node":"info/follow"}"#, #"{"t":"answer","id":2,"accept":true}"#]
            ) {
                !$0.of("patch").isEmpty
            }
            #expect(!accepted.of("patch").isEmpty)
            #expect(try await fixture.store.profile(of: "1", viewer: "2").viewerFollows == false, "accepted: unfollowed")
        }
    }

    @Test func scrollingMovesTheWindowWithRemovalsAndARenumberedSection() async throws {
        try await fixture.server.application().test(.live) { client in
            let page = try await client.execute(uri: "/scenes/user-profile?user=1", method: .get)
            let html = String(buffer: page.body)
            #expect(html.contains(#"data-first-row="0" data-total-rows="27""#), "the page starts with a window of the blogs")
            let session = try #require(html.sessionID)
            let received = try await talk(client, session: session, send: [#"{"t":"window","module":"blogs","start":5}"#]) {
                !$0.of("patch").isEmpty
            }
            guard case .array(let operations)? = received.of("patch").first?["ops"] else {
                Issue.record("no patch: \(received.all)")
                return
            }
            #expect(operations.filter { $0["op"] == "remove" }.count == 5, "rows 0–4 leave")
            #expect(operations.last == ["op": "window", "id": "blogs/all", "first": 5, "total": 27])
            #expect(operations.count == 6)
        }
    }

    @Test func navigationTellsThePageWhereToGo() async throws {
        try await fixture.server.application().test(.live) { client in
            let session = try await openPage(client, "/scenes/user-profile?user=1")
            let received = try await talk(client, session: session, send: [#"{"t":"event","node":"blogs/blog.27"}"#]) { !$0.of("navigate").isEmpty }
            #expect(received.of("navigate").first?["url"] == "/scenes/blog-detail?blog=27")
        }
    }

    @Test(arguments: [
        #"{"t":"event","node":"drafts/draft.1"}"#,  // a draft control, for someone who is not the owner
        #"{"t":"event","node":"nothing/here"}"#,
        #"{"t":"event"}"#,
        #"{"t":"event","node":"blogs/blog.27.like","payload":{"blog":1}}"#.replacingOccurrences(of: "27", with: "9999"),
        #"not json at all"#,
        #"{"t":"answer","id":77,"accept":true}"#,
        #"{"t":"launch"}"#,
        #"{"t":"window","module":"nothing","start":3}"#,
        #"{"t":"window","module":"blogs","start":-1}"#,
        #"{"t":"window","module":"blogs"}"#,
    ])
    func forgedMessagesAreRefusedAndTheSessionCarriesOn(message: String) async throws {
        let bob = fixture.cookie(for: "2")
        try await fixture.server.application().test(.live) { client in
            let session = try await openPage(client, "/scenes/user-profile?user=1", cookie: bob)
            let received = try await talk(client, session: session, cookie: bob, send: [message, #"{"t":"event","node":"blogs/blog.26.like"}"#]) {
                !$0.of("patch").isEmpty
            }
            #expect(received.of("refused").count == 1, "\(received.all)")
            #expect(received.of("patch").count == 1, "the next, valid event still works")
            for value in received.all { #expect(!value.compactJSON.contains("Through the looking glass")) }
        }
    }

    @Test func aFloodOfEventsIsRefusedAtABoundedCost() async throws {
        try await fixture.server.application().test(.live) { client in
            let session = try await openPage(client, "/scenes/user-profile?user=1")
            let flood = Array(repeating: #"{"t":"event","node":"blogs/refresh"}"#, count: 60)
            let received = try await talk(client, session: session, send: flood, pause: .zero) { $0.of("refused").count >= 20 }
            #expect(received.of("refused").count >= 20, "a burst beyond the allowance is refused")
            #expect(received.of("refused").first?["message"] == "Too many actions at once; wait a moment.")
        }
    }

    @Test func hugeFramesAndInvalidUTF8CloseThatSocketOnlyAndThePageReconnects() async throws {
        try await fixture.server.application().test(.live) { client in
            let session = try await openPage(client, "/scenes/user-profile?user=1")
            let configuration = WebSocketClientConfiguration(maxFrameSize: 1 << 20, additionalHeaders: ServerFixture.headers())
            // 100 KB in one frame: more than the server takes.
            let huge = try await client.ws("/live?session=\(session)&since=0", configuration: configuration) { inbound, outbound, _ in
                try await outbound.write(.text(String(repeating: "x", count: 100_000)))
                for try await _ in inbound.messages(maxSize: 1 << 20) {}
            }
            #expect(huge?.closeCode == .messageTooLarge)
            // Bytes that are not UTF-8 in a text frame.
            let invalid = try await client.ws("/live?session=\(session)&since=0", configuration: configuration) { inbound, outbound, _ in
                var bytes = ByteBuffer()
                bytes.writeBytes([0x7B, 0xFF, 0xFE, 0x7D])
                try await outbound.write(.custom(.init(fin: true, opcode: .text, data: bytes)))
                for try await _ in inbound.messages(maxSize: 1 << 20) {}
            }
            #expect(invalid?.closeCode == .dataInconsistentWithMessage)
            // The same page carries on.
            let received = try await talk(
                client, session: session, send: [#"{"t":"event","node":"sections#drafts"}"#, #"{"t":"event","node":"blogs/refresh"}"#]
            ) {
                !$0.of("refused").isEmpty
            }
            #expect(received.of("refused").count == 1, "no drafts tab for a signed-out viewer; refused, not crashed")
            #expect(await fixture.server.openPages == 1)
        }
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
            let received = try await talk(client, session: session, cookie: fixture.cookie(for: "1"), send: [#"{"t":"event","node":"blogs/blog.27.like"}"#]) {
                _ in false
            }
            #expect(received.all.isEmpty, "nothing is sent to another viewer")
            #expect(try await fixture.store.blog(27, viewer: "1").likedByViewer == false)
        }
    }

    @Test func aReconnectReplaysWhatThePageMissed() async throws {
        try await fixture.server.application().test(.live) { client in
            let session = try await openPage(client, "/scenes/user-profile?user=1", cookie: fixture.cookie(for: "1"))
            let cookie = fixture.cookie(for: "1")
            // Select the drafts tab, then drop the connection.
            let first = try await talk(client, session: session, cookie: cookie, send: [#"{"t":"event","node":"sections#drafts"}"#]) { !$0.of("patch").isEmpty }
            #expect(first.of("patch").first?["seq"] == 1)
            // A page that missed message 1 gets it again; the scene kept the selected tab.
            let replay = try await talk(client, session: session, since: 0, cookie: cookie, send: []) { !$0.of("patch").isEmpty }
            #expect(replay.of("patch").first?["seq"] == 1)
            // One that has it gets nothing more; the drafts are on the page.
            let caughtUp = try await talk(client, session: session, since: 1, cookie: cookie, send: [#"{"t":"resync"}"#]) { !$0.of("reset").isEmpty }
            #expect(caughtUp.of("patch").isEmpty)
            #expect(caughtUp.of("reset").first?["html"]?.stringValue?.contains("Through the looking glass") == true)
        }
    }

    @Test func anUnknownSessionIsToldToLoadThePageAgain() async throws {
        try await fixture.server.application().test(.live) { client in
            let received = try await talk(client, session: "0123456789abcdef", send: []) { _ in false }
            #expect(received.all.isEmpty)
        }
    }
}
