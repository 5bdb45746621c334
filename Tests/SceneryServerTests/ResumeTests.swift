import Foundation
import HTTPTypes
import Hummingbird
import ProfileDemo
import ProfileDemoDomain
import ProfileDemoStore
import Scenery
import SceneryLive
import SceneryPageProtocol
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// Two servers of one site (one store, one signing key): a page made by the first resumes
/// on the second from its token, where it was, and an action sent again is applied once.
@Suite(.timeLimit(.minutes(5))) struct ResumeTests {
    let store: SQLiteProfileStore
    let first: SceneryServer
    let second: SceneryServer
    let sockets: LiveSocketTests

    init() throws {
        let store = try SQLiteProfileStore.inMemory(seedDemoData: true)
        self.store = store
        first = try Self.server(of: store, ledger: store)
        second = try Self.server(of: store, ledger: store)
        sockets = LiveSocketTests(fixture: try ServerFixture())
    }

    /// A server of the site (its store, its key), recording actions and tokens in `ledger`,
    /// configured further by `configure`.
    static func server(
        of store: SQLiteProfileStore, ledger: any ActionLedger, configure: (inout SceneryServer.Configuration) -> Void = { _ in }
    ) throws -> SceneryServer {
        var registry = SceneRegistry()
        registry.registerProfileModules(ProfileServices(store))
        _ = try registry.loadScenes(in: ServerFixture.scenesDirectory)
        var configuration = SceneryServer.Configuration(host: "127.0.0.1", port: 0, cookieSecret: Array(repeating: 7, count: 32))
        configuration.allowedOrigins = ["http://localhost"]
        configuration.actionLedger = ledger
        configuration.firstResponseWait = .seconds(60)  // whole pages, as in ServerFixture
        configuration.givesStarvedRequestsTime()  // tests of resuming, not of deadlines
        configure(&configuration)
        let users = try store.allUsers().map { SignInUser(id: $0.id.rawValue, name: $0.name) }
        return SceneryServer(registry: registry, users: users, configuration: configuration)
    }

    func cookie(for user: String) -> String {
        "\(SceneryServer.cookieName)=\(first.cookies.value(for: user, expiry: Date().addingTimeInterval(3600)))"
    }

    /// The newest resume token a socket received.
    static func token(in received: Received) throws -> String {
        try #require(received.of("resume").last?["token"]?.stringValue)
    }

    static func applied(_ key: String) -> @Sendable (Received) -> Bool {
        {
            $0.of("resume").contains { message in
                guard case .array(let keys)? = message["applied"] else { return false }
                return keys.contains(.string(key))
            }
        }
    }

    @Test func aPageResumesOnAnotherServerWithItsTabAndNumbering() async throws {
        let alice = cookie(for: "1")
        let (session, token, sequence) = try await first.application().test(.live) { client in
            let session = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: alice)
            let received = try await sockets.talk(
                client, session: session, cookie: alice, send: [.event(node: "sections#drafts", action: .named("tab-drafts-1"))],
                until: Self.applied("tab-drafts-1"))
            let sequence = received.of("patch").compactMap { $0["sequence"]?.intValue }.max() ?? 0
            #expect(sequence >= 1, "the tab switch came back as a patch")
            return (session, try Self.token(in: received), sequence)
        }
        // The first server is gone (its sessions with it); the page comes to the second.
        try await second.application().test(.live) { client in
            let resumed = try await sockets.talk(client, session: session, since: sequence, cookie: alice, resume: token, send: []) {
                !$0.of("reset").isEmpty && !$0.of("resume").isEmpty
            }
            let reset = try #require(resumed.of("reset").first)
            #expect(reset["sequence"]?.intValue == sequence + 1, "the page's numbering goes on")
            let html = try #require(reset["html"]?.stringValue)
            #expect(html.contains("Through the looking glass"), "the drafts tab is still selected")
            #expect(html.contains(#"aria-selected="true""#) && html.contains("Drafts"))
            // The session lives on the second server now: a plain reconnect finds it.
            let again = try await sockets.talk(client, session: session, since: sequence + 1, cookie: alice, send: [.resync]) {
                !$0.of("reset").isEmpty
            }
            #expect(again.of("reset").first?["html"]?.stringValue?.contains("Through the looking glass") == true)
        }
    }

    @Test func aPageResumesOnAnotherServerInItsLanguage() async throws {
        let alice = cookie(for: "1")
        let (session, token) = try await first.application().test(.live) { client in
            let session = try await sockets.openPage(client, "/scenes/user-profile?user=4&lang=zh-Hans", cookie: alice)
            let received = try await sockets.talk(client, session: session, cookie: alice, send: []) { !$0.of("resume").isEmpty }
            return (session, try Self.token(in: received))
        }
        try await second.application().test(.live) { client in
            let resumed = try await sockets.talk(client, session: session, since: 0, cookie: alice, resume: token, send: []) {
                !$0.of("reset").isEmpty
            }
            let html = try #require(resumed.of("reset").first?["html"]?.stringValue)
            #expect(html.contains("作品: 2"), "still in Chinese: \(html.prefix(300))")
        }
    }

    @Test func aResumeNamingAMessageNumberNearIntMaxIsRefusedAndTheServerServesOn() async throws {
        // A signed-out visitor's page, whose session this server does not hold.
        let (session, token) = try await first.application().test(.live) { client in
            let session = try await sockets.openPage(client, "/scenes/user-profile?user=1")
            let received = try await sockets.talk(client, session: session, until: { !$0.of("resume").isEmpty })
            return (session, try Self.token(in: received))
        }
        try await second.application().test(.live) { client in
            for since in [Int.max, PageProtocol.largestSequence + 1] {
                let (received, close) = try await sockets.converse(
                    client, session: session, since: since, resume: token, [.waitUntil { !$0.of("reset").isEmpty }])
                #expect(received.of("reset").isEmpty, "nothing is made for a page that names no message number")
                if let close {
                    #expect(close.closeCode == .policyViolation)
                    #expect(close.reason == PageProtocol.BadSequence().message)
                }
            }
            // The server is up, and the token (not used by the refusals) still resumes the page.
            let resumed = try await sockets.talk(client, session: session, since: 3, resume: token) { !$0.of("reset").isEmpty }
            #expect(resumed.of("reset").first?["sequence"]?.intValue == 4)
        }
    }

    @Test func anotherViewerCannotResumeSomeonesPageWithItsToken() async throws {
        let alice = cookie(for: "1")
        let (session, token) = try await first.application().test(.live) { client in
            let session = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: alice)
            let received = try await sockets.talk(
                client, session: session, cookie: alice, send: [.event(node: "sections#drafts", action: .named("tab-drafts-2"))],
                until: Self.applied("tab-drafts-2"))
            return (session, try Self.token(in: received))
        }
        try await second.application().test(.live) { client in
            for intruder in [cookie(for: "2"), nil] {
                let (received, close) = try await sockets.converse(
                    client, session: session, since: 0, cookie: intruder, resume: token, [.waitUntil { !$0.of("reset").isEmpty }])
                #expect(received.all.isEmpty, "nothing of Alice's page reaches \(intruder == nil ? "a signed-out visitor" : "Bob")")
                if let close {
                    #expect(close.closeCode == .unknown(4404), "the page loads again, for whoever is signed in now")
                    #expect(close.reason == ResumeToken.Refusal.otherViewer.reason)
                }
            }
        }
    }

    @Test func anActionTheGoneServerAppliedIsNotAppliedAgain() async throws {
        let bob = cookie(for: "2")
        let likesBefore = try await store.blog(26, viewer: "2")
        #expect(!likesBefore.likedByViewer)
        let (session, olderToken) = try await first.application().test(.live) { client in
            let session = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: bob)
            // The token from before the like: the server will "die" before the page hears back.
            let received = try await sockets.converse(
                client, session: session, cookie: bob,
                [
                    .waitUntil { !$0.of("resume").isEmpty },
                    .send(.event(node: "blogs/blog.26.like", action: .named("like-26-once"))),
                    .waitUntil(Self.applied("like-26-once")),
                ]
            ).received
            return (session, try #require(received.of("resume").first?["token"]?.stringValue))
        }
        #expect(try await store.blog(26, viewer: "2").likes == likesBefore.likes + 1)
        #expect(
            try await store.hasApplied(ActionKey(validating: "like-26-once").scoped(toViewer: "2", visitor: nil)), "the like's write recorded its key, as Bob's"
        )
        try await second.application().test(.live) { client in
            // The page sends the like again under its key; on the second server the button
            // would now unlike, so running it again would show.
            let received = try await sockets.talk(
                client, session: session, since: 0, cookie: bob, resume: olderToken,
                send: [.event(node: "blogs/blog.26.like", action: .named("like-26-once"))], until: Self.applied("like-26-once"))
            #expect(received.of("refused").isEmpty, "\(received.all)")
        }
        let after = try await store.blog(26, viewer: "2")
        #expect(after.likedByViewer && after.likes == likesBefore.likes + 1, "liked once")
    }

    @Test func anActionSentTwiceToOneSessionRunsOnce() async throws {
        let bob = cookie(for: "2")
        let before = try await store.blog(27, viewer: "2")
        try await first.application().test(.live) { client in
            let session = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: bob)
            let like: PageProtocol.ClientMessage = .event(node: "blogs/blog.27.like", action: .named("like-27-twice"))
            _ = try await sockets.talk(client, session: session, cookie: bob, send: [like, like], until: Self.applied("like-27-twice"))
            // And once more on a new socket to the same session, after it finished.
            _ = try await sockets.talk(client, session: session, since: 0, cookie: bob, send: [like], until: Self.applied("like-27-twice"))
        }
        let after = try await store.blog(27, viewer: "2")
        #expect(after.likedByViewer != before.likedByViewer, "the button toggled once")
        #expect(after.likes == before.likes + (before.likedByViewer ? -1 : 1))
    }

    // MARK: Refusals (the server's own check, apart from the socket)

    func request(cookie: String?) -> Request {
        var fields = HTTPFields()
        if let cookie { fields[.cookie] = cookie }
        return Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: "/live", headerFields: fields), body: RequestBody(buffer: .init()))
    }

    func token(for viewer: String?, session: String = "00112233445566778899aabbccddeeff", issued: Date = Date()) -> String {
        ResumeToken(
            session: session, viewer: viewer, scene: "user-profile", arguments: ["user": "1"], issued: Int(issued.timeIntervalSince1970),
            nonce: ActionKey.random().rawValue
        ).signed(with: Array(repeating: 7, count: 32))
    }

    func refusal(_ text: String, session: String = "00112233445566778899aabbccddeeff", cookie: String?) async -> SceneryServer.ResumeRefusal? {
        do {
            let page = try await second.resumePage(session, token: text, since: 0, request: request(cookie: cookie), address: "127.0.0.1")
            await page.end()
            return nil
        } catch {
            return error
        }
    }

    /// Makes the page of `token` again on the second server as Alice, and ends it; returns
    /// the token the page would have been sent next.
    func useAndEnd(_ token: String, on server: SceneryServer? = nil) async throws(SceneryServer.ResumeRefusal) -> String? {
        let page = try await (server ?? second).resumePage(
            "00112233445566778899aabbccddeeff", token: token, since: 0, request: request(cookie: cookie(for: "1")), address: "127.0.0.1")
        let next = await page.signedResumeToken()
        await page.end()
        return next
    }

    @Test func aUsedTokenMakesItsPageAgainOnlyWhileThePageNeverMovedOn() async throws {
        // Nothing ever used the tokens these pages were sent (their servers stopped first):
        // the token makes the page again, as often as the ledger allows.
        let lost = token(for: "1")
        for use in 0...ResumeTokenUses.retries {
            #expect(try await useAndEnd(lost) != nil, "use \(use)")
        }
        await #expect(throws: SceneryServer.ResumeRefusal.token(.used), "spent after its retries") { try await useAndEnd(lost) }

        // A page that moved on (it resumed with the token it was sent) leaves its old token spent.
        let older = token(for: "1")
        let newer = try #require(try await useAndEnd(older))
        #expect(try await useAndEnd(newer) != nil)
        await #expect(throws: SceneryServer.ResumeRefusal.token(.used)) { try await useAndEnd(older) }
    }

    @Test func aUseAnotherServerTookMeanwhilePassesToTheNextUse() async throws {
        // Between this server's look-up and its claim, another server makes the page from the
        // same token (its first use): this one takes the next use instead of refusing.
        let ledger = CallRecordingLedger()
        let server = try Self.server(of: store, ledger: ledger)
        let text = token(for: "1")
        let nonce = try ResumeToken.verify(text, secret: Array(repeating: 7, count: 32), lifetime: .seconds(60)).nonce
        ledger.beforeFirstClaim = { try await $0.claim(ActionKey(validating: nonce)) }
        #expect(try await useAndEnd(text, on: server) != nil)
        #expect(ledger.calls == ["hasApplied", "claim", "hasApplied", "claim"], "the first use was taken; the page moved on from nothing, so the next")
        #expect(try await ledger.hasApplied(ActionKey(validating: nonce + "-again-1")))
    }

    @Test func aStoppingServerLeavesTheTokenUnspentForTheNextServer() async throws {
        let token = token(for: "1")
        await second.sessions.endAll()  // the second server stops, as in a rolling restart
        #expect(await refusal(token, cookie: cookie(for: "1")) == .serverClosing)
        #expect(SceneryServer.ResumeRefusal.serverClosing.reason.utf8.count <= 123, "a close reason")
        // The token was not spent: the next server makes the page again with it.
        let calls = CallRecordingLedger()
        #expect(try await useAndEnd(token, on: try Self.server(of: store, ledger: calls)) != nil)
        #expect(calls.calls == ["hasApplied", "claim"], "its first use")
    }

    @Test func aStoppingServerSendsAResumingPageOnToConnectAgain() async throws {
        let alice = cookie(for: "1")
        let (session, token) = try await first.application().test(.live) { client in
            let session = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: alice)
            let received = try await sockets.talk(client, session: session, cookie: alice, until: { !$0.of("resume").isEmpty })
            return (session, try Self.token(in: received))
        }
        await second.sessions.endAll()
        try await second.application().test(.live) { client in
            let (received, close) = try await sockets.converse(
                client, session: session, cookie: alice, resume: token, [.waitUntil { !$0.of("reset").isEmpty }])
            #expect(received.all.isEmpty, "no page is made on a stopping server")
            if let close {
                #expect(close.closeCode == .goingAway, "not 4404: the page connects again rather than load afresh")
                #expect(close.reason == SceneryServer.ResumeRefusal.serverClosing.reason)
            }
        }
    }

    @Test func socketsOfOnePageInABurstMakeItAgainOnce() async throws {
        let ledger = CallRecordingLedger()
        let server = try Self.server(of: store, ledger: ledger)
        let text = token(for: "1")
        let request = request(cookie: cookie(for: "1"))
        // The pages stay open until every socket was answered, as on a server: a socket that
        // comes after the page was made finds it.
        let results = await withTaskGroup(of: Result<PageSession, SceneryServer.ResumeRefusal>.self) { group in
            for _ in 0..<12 {
                group.addTask {
                    do throws(SceneryServer.ResumeRefusal) {
                        return .success(
                            try await server.resumePage("00112233445566778899aabbccddeeff", token: text, since: 0, request: request, address: "127.0.0.1"))
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: [Result<PageSession, SceneryServer.ResumeRefusal>]()) { $0.append($1) }
        }
        var outcomes: [SceneryServer.ResumeRefusal?] = []
        for result in results {
            switch result {
            case .success(let page):
                await page.end()
                outcomes.append(nil)
            case .failure(let refusal): outcomes.append(refusal)
            }
        }
        #expect(outcomes.filter { $0 == nil }.count == 1, "\(outcomes)")
        let expected: [SceneryServer.ResumeRefusal?] = [nil, .alreadyResuming, .token(.used)]
        #expect(outcomes.allSatisfy { outcome in expected.contains(outcome) }, "\(outcomes)")
        #expect(ledger.calls.filter { $0 == "claim" }.count == 1, "the page was made once: \(ledger.calls)")
    }

    @Test func aSpentTokenIsRefusedBeforeThePageIsMadeAgain() async throws {
        let ledger = CallRecordingLedger()
        let server = try Self.server(of: store, ledger: ledger)
        let older = token(for: "1")
        let newer = try #require(try await useAndEnd(older, on: server))
        #expect(ledger.calls == ["hasApplied", "claim"], "made, then spent")
        _ = try await useAndEnd(newer, on: server)
        #expect(ledger.calls.suffix(3) == ["hasApplied", "claim", "claim"], "the newer token's use, and the page moved on")
        let before = ledger.calls.count
        await #expect(throws: SceneryServer.ResumeRefusal.token(.used)) { try await useAndEnd(older, on: server) }
        #expect(ledger.calls.dropFirst(before) == ["hasApplied", "hasApplied"], "refused at the look-ups: no scene made, nothing claimed")
    }

    @Test func aPageWhoseServerStoppedBeforeItsNewTokenArrivedResumesWithTheOldOne() async throws {
        // The rolling restart's race, at the socket: the second server makes the page again
        // and writes it a new token, then stops before the page reads it.
        let alice = cookie(for: "1")
        let (session, token) = try await first.application().test(.live) { client in
            let session = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: alice)
            let received = try await sockets.talk(client, session: session, cookie: alice, until: { !$0.of("resume").isEmpty })
            return (session, try Self.token(in: received))
        }
        let resumed: @Sendable (Received) -> Bool = { !$0.of("reset").isEmpty && !$0.of("resume").isEmpty }
        try await second.application().test(.live) { client in
            _ = try await sockets.talk(client, session: session, since: 0, cookie: alice, resume: token, until: resumed)
        }
        let third = try Self.server(of: store, ledger: store)
        let newer = try await third.application().test(.live) { client in
            let received = try await sockets.talk(client, session: session, since: 0, cookie: alice, resume: token, until: resumed)
            #expect(received.of("reset").first?["html"]?.stringValue?.contains("Alice") == true, "made again with the token it used")
            return try Self.token(in: received)
        }
        // This time the page got its new token and uses it: the old one is spent for good.
        let fourth = try Self.server(of: store, ledger: store)
        try await fourth.application().test(.live) { client in
            _ = try await sockets.talk(client, session: session, since: 0, cookie: alice, resume: newer, until: resumed)
        }
        try await Self.server(of: store, ledger: store).application().test(.live) { client in
            let (received, close) = try await sockets.converse(
                client, session: session, since: 0, cookie: alice, resume: token, [.waitUntil { !$0.of("reset").isEmpty }])
            #expect(received.all.isEmpty, "nothing made from a token the page moved on from")
            #expect(close?.closeCode == .unknown(4404))
            #expect(close?.reason == ResumeToken.Refusal.used.reason)
        }
    }

    @Test func aForgedTokenIsRefused() async throws {
        let token = token(for: "1")
        var bytes = Array(token.utf8)
        bytes[4] = bytes[4] == UInt8(ascii: "A") ? UInt8(ascii: "B") : UInt8(ascii: "A")
        #expect(await refusal(String(decoding: bytes, as: UTF8.self), cookie: cookie(for: "1")) == .token(.forged))
        let otherKey = ResumeToken(
            session: "00112233445566778899aabbccddeeff", viewer: "1", scene: "user-profile", arguments: [:], issued: 0, nonce: "abcdefgh"
        )
        .signed(with: Array(repeating: 8, count: 32))
        #expect(await refusal(otherKey, cookie: cookie(for: "1")) == .token(.forged), "signed with another site's key")
        #expect(await refusal("not a token", cookie: cookie(for: "1")) == .token(.malformed))
        #expect(await refusal(String(repeating: "a", count: 10_000), cookie: cookie(for: "1")) == .token(.malformed))
    }

    @Test func aTokenServesOnlyItsViewerAndItsPage() async throws {
        #expect(await refusal(token(for: "1"), cookie: cookie(for: "2")) == .otherViewer, "Bob cannot take Alice's page")
        #expect(await refusal(token(for: "1"), cookie: nil) == .otherViewer, "nor can someone signed out")
        #expect(await refusal(token(for: nil), cookie: cookie(for: "2")) == .otherViewer, "a signed-out page stays signed out")
        #expect(await refusal(token(for: "1"), session: "ffeeddccbbaa99887766554433221100", cookie: cookie(for: "1")) == .otherSession)
    }

    @Test func aTokenBodyIsURLSafeBase64ThatReadsBackToItsBytes() throws {
        var generator = SystemRandomNumberGenerator()
        for count in 0...67 {
            let bytes = Data((0..<count).map { _ in UInt8.random(in: .min ... .max, using: &generator) })
            let text = ResumeToken.base64URL(bytes)
            #expect(!text.contains { "+/=".contains($0) }, "\(count) bytes: \(text)")
            #expect(text == bytes.base64EncodedString().replacing("+", with: "-").replacing("/", with: "_").replacing("=", with: ""))
            #expect(ResumeToken.data(fromBase64URL: Substring(text)) == bytes)
        }
        #expect(ResumeToken.data(fromBase64URL: "a+b/") == nil, "standard Base64's alphabet is not a token's")
        #expect(ResumeToken.data(fromBase64URL: "é") == nil)
    }

    @Test func anOldTokenIsRefused() async throws {
        let old = token(for: "1", issued: Date().addingTimeInterval(-7 * 3600))
        #expect(await refusal(old, cookie: cookie(for: "1")) == .token(.expired))
        #expect(throws: ResumeToken.Refusal.expired) {
            try ResumeToken.verify(token(for: "1"), secret: Array(repeating: 7, count: 32), now: Date().addingTimeInterval(61), lifetime: .seconds(60))
        }
    }
}

/// A ledger in memory that records which of its calls were made, in order.
final class CallRecordingLedger: ActionLedger, @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [String] = []
    private let keys = MemoryActionLedger()
    /// Runs once, before the first claim is answered (on the inner ledger, unrecorded):
    /// another server's doing meanwhile.
    var beforeFirstClaim: (@Sendable (MemoryActionLedger) async throws -> Bool)?

    var calls: [String] { lock.withLock { recorded } }

    func hasApplied(_ key: ActionKey) async throws -> Bool {
        lock.withLock { recorded.append("hasApplied") }
        return try await keys.hasApplied(key)
    }

    func claim(_ key: ActionKey) async throws -> Bool {
        let meanwhile = lock.withLock { () -> (@Sendable (MemoryActionLedger) async throws -> Bool)? in
            recorded.append("claim")
            defer { beforeFirstClaim = nil }
            return beforeFirstClaim
        }
        if let meanwhile { _ = try await meanwhile(keys) }
        return try await keys.claim(key)
    }
}
