import Foundation
import Logging
import ProfileDemoDomain
import Scenery
import SceneryPageProtocol
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// The handshake's node kinds: a client names the kinds it shows and is sent no other; a
/// forged list is refused where it enters.
@Suite(.timeLimit(.minutes(5))) struct NodeKindsTests {
    /// An app of page protocol 1 that draws no forms or text fields (a watch, say).
    static let noForms = PageProtocol.NodeKinds([.text, .image, .button, .stack, .list, .tabs, .placeholder, .module])

    @Test(arguments: PageTestTransport.allCases)
    func aClientThatShowsNoFormsIsSentAPlaceholderInItsPlaceAndLaterChangesApplyToWhatItHas(transport: PageTestTransport) async throws {
        let log = CapturedLog()
        let fixture = try ServerFixture(logger: Logger(label: "test") { _ in CapturedLog.Handler(log: log) })
        let store = fixture.store
        try await fixture.server.test(transport) { client in
            let alice = try await client.open("user-profile", arguments: ["user": "1"], as: "1", kinds: Self.noForms)
            try await alice.waitForAnswer(to: try await alice.tap("sections#drafts"))
            #expect(alice.tree.visibleTexts.contains("Through the looking glass"), "her drafts are listed")
            let kinds = Set(alice.tree.allNodes.map(PageProtocol.NodeKind.init(of:)))
            #expect(kinds.isDisjoint(with: [.form, .textField]), "\(kinds)")
            let said = alice.tree.allNodes.compactMap { node -> String? in
                if case .placeholder(let placeholder) = node.kind { placeholder.message } else { nil }
            }
            #expect(said.contains("This app cannot show a form here: update it to see this part."), "\(said)")
            // A draft written elsewhere reaches the page as patches of the tree it holds.
            var data = try store.exportData()
            data.drafts.append(Draft(id: 77, owner: "1", title: "Written in another tab", body: "", editedAt: Date()))
            try store.importData(data)
            let updated = try await alice.waitUntil("the new draft") { $0.tree.visibleTexts.contains("Written in another tab") }
            #expect(Set(updated.tree.allNodes.map(PageProtocol.NodeKind.init(of:))).isDisjoint(with: [.form, .textField]))
            let resent = updated.messages.filter { if case .tree = $0 { true } else { false } }
            #expect(resent.isEmpty, "every patch applied to the page's tree: no whole scene was sent again")
        }
        let notes = log.lines(at: .notice).filter { $0.contains("its client does not show") }
        #expect(notes.count == 1, "once a page: \(notes)")
        #expect(notes.first?.contains("does not show form") == true, "\(notes)")
    }

    @Test(arguments: PageTestTransport.allCases)
    func aClientOfEveryKindIsSentTheTreeAsItIs(transport: PageTestTransport) async throws {
        let fixture = try ServerFixture()
        try await fixture.server.test(transport) { client in
            let alice = try await client.open("user-profile", arguments: ["user": "1"], as: "1")
            try await alice.waitForAnswer(to: try await alice.tap("sections#drafts"))
            let kinds = Set(alice.tree.allNodes.map(PageProtocol.NodeKind.init(of:)))
            #expect(kinds.isSuperset(of: [.form, .textField]), "\(kinds)")
        }
    }

    @Test func aForgedKindsListIsRefusedWithItsReason() async throws {
        let sockets = LiveSocketTests(fixture: try ServerFixture())
        let forged: [(String, PageProtocol.BadNodeKinds.Reason)] = [
            (Array(repeating: "text", count: 10_000).joined(separator: ","), .tooLong),
            (Array(repeating: "a", count: 65).joined(separator: ","), .tooMany),
            ("stack,module,placeholder,\(String(repeating: "x", count: 33))", .badName),
            ("stack,module,placeholder,te%22xt", .badName),
            ("stack,module,placeholder,", .badName),
            ("text,button", .missingRequired),
        ]
        try await sockets.fixture.server.application().test(.live) { client in
            let session = try await sockets.openPage(client, "/scenes/user-profile?user=1")
            for (kinds, reason) in forged {
                let (received, close) = try await sockets.converse(client, session: session, kinds: kinds, [.waitUntil { !$0.all.isEmpty }])
                #expect(received.all.isEmpty, "nothing is sent to a forged handshake")
                if let close {
                    #expect(close.closeCode == .policyViolation)
                    #expect(close.reason == PageProtocol.BadNodeKinds(reason: reason).message)
                }
            }
            // The server serves on: the page's own socket is answered.
            let answered = try await sockets.talk(client, session: session) { !$0.of("resume").isEmpty }
            #expect(!answered.of("resume").isEmpty)
            // And a view-tree scene asked for with a forged list is refused in words.
            let refused = try await client.execute(uri: "/api/scenes/user-profile?user=1&kinds=text", method: .get)
            #expect(refused.status == .badRequest)
            #expect(refused.text.contains(PageProtocol.BadNodeKinds(reason: .missingRequired).message), "\(refused.text)")
        }
    }

    @Test func aSocketNamingOtherKindsThanItsScenesRequestIsRefused() async throws {
        let sockets = LiveSocketTests(fixture: try ServerFixture())
        try await sockets.fixture.server.application().test(.live) { client in
            let response = try await client.execute(uri: "/api/scenes/user-profile?user=1&kinds=\(Self.noForms.query)", method: .get)
            let session = try #require(try JSONDecoder().decode(JSONValue.self, from: Data(response.text.utf8))["session"]?.stringValue)
            let (received, close) = try await sockets.converse(
                client, session: session, kinds: PageProtocol.NodeKinds.every.query, [.waitUntil { !$0.all.isEmpty }])
            #expect(received.of("patches").isEmpty && received.of("tree").isEmpty, "nothing is sent for the tree it never had")
            if let close { #expect(close.closeCode == .policyViolation) }
            let same = try await sockets.talk(client, session: session, kinds: Self.noForms.query) { !$0.of("resume").isEmpty }
            #expect(!same.of("resume").isEmpty, "the same kinds attach")
        }
    }

    /// A client of page protocol 1 from before the handshake named kinds (its requests as it
    /// made them): it is sent every kind of protocol 1 and its page works.
    @Test func aClientFromBeforeTheHandshakeGetsAWorkingPage() async throws {
        let sockets = LiveSocketTests(fixture: try ServerFixture())
        let bob = sockets.fixture.cookie(for: "2")
        try await sockets.fixture.server.application().test(.live) { client in
            let response = try await client.execute(uri: "/api/scenes/user-profile?user=1", method: .get, headers: [.cookie: bob])
            let opened = try JSONDecoder().decode(JSONValue.self, from: Data(response.text.utf8))
            let session = try #require(opened["session"]?.stringValue)
            #expect(response.text.contains(#""type":"tree""#))
            let received = try await sockets.talk(
                client, session: session, cookie: bob, send: [.event(node: "blogs/blog.26.like", action: .named("old-client-like"))]
            ) { !$0.of("patches").isEmpty }
            #expect(!received.of("patches").isEmpty, "its like came back as patches of its tree")
        }
    }

    @Test func aKindsListIsReadAsAClientWritesIt() throws {
        #expect(try PageProtocol.NodeKinds(query: nil) == .version1, "a client that names none shows protocol 1's")
        #expect(try PageProtocol.NodeKinds(query: Substring(PageProtocol.NodeKinds.every.query)) == .every)
        let newer = try PageProtocol.NodeKinds(query: "stack,module,placeholder,text,hologram")
        #expect(newer == PageProtocol.NodeKinds([.stack, .module, .placeholder, .text]), "a newer client's kind is passed over")
        #expect(Self.noForms.query == "text,image,button,stack,list,tabs,placeholder,module")
    }

    /// What the handshake costs a page: the `&kinds=…` its socket's address adds (a budget).
    @Test func theHandshakeOfEveryKindCostsAPageAtMost80Bytes() {
        let handshake = "&kinds=" + PageProtocol.NodeKinds.every.query
        #expect(handshake.utf8.count <= 80, "\(handshake.utf8.count) bytes: \(handshake)")
    }

    @Test func aTreeIsFittedToTheKindsAClientShows() {
        let form = ViewNode.form(
            "compose", submit: .init(title: "Save", sends: "save"), [.textField("title", TextField(name: "title", label: "Title"))])
        let tree = ViewNode.stack("root", axis: .vertical, [.text("heading", "Drafts", role: .title), form])
        #expect(PageProtocol.NodeKinds.every.fitting(tree) == tree)
        let fitted = Self.noForms.fitting(tree)
        #expect(fitted.allNodes.map(\.id) == ["root", "heading", "compose"], "the form's place keeps its id; what it held goes with it")
        #expect(Self.noForms.unshown(in: tree) == [.form])
        #expect(Self.noForms.shows(fitted))
    }
}

/// A client that reconnects in a loop is held back, page by page: its own page waits, and no
/// other page notices.
@Suite(.timeLimit(.minutes(5))) struct ReconnectLimitTests {
    @Test func aPageReconnectingInALoopIsToldToWaitAndAnotherPageAttachesAsEver() async throws {
        // Two sockets in a burst, and (for the test's length) none more after them.
        let sockets = LiveSocketTests(
            fixture: try ServerFixture { configuration in
                configuration.reconnectBurst = 2
                configuration.reconnectsPerSecond = 0.001
            })
        try await sockets.fixture.server.application().test(.live) { client in
            let looping = try await sockets.openPage(client, "/scenes/user-profile?user=1")
            let other = try await sockets.openPage(client, "/scenes/user-profile?user=1")
            for _ in 0..<2 {
                let attached = try await sockets.talk(client, session: looping) { !$0.of("resume").isEmpty }
                #expect(!attached.of("resume").isEmpty, "within its burst, the page attaches")
            }
            let (received, close) = try await sockets.converse(client, session: looping, [.waitUntil { !$0.all.isEmpty }])
            #expect(received.of("resume").isEmpty, "past its burst, it is not attached")
            if let close {
                #expect(close.closeCode == .unknown(1013))
                #expect(close.reason == "This page reconnects too often; it connects again in a moment.")
            }
            let elsewhere = try await sockets.talk(client, session: other) { !$0.of("resume").isEmpty }
            #expect(!elsewhere.of("resume").isEmpty, "another page attaches as ever")
        }
    }

    @Test func aPagesAttachBucketRefillsAtItsRate() async throws {
        let fixture = try ServerFixture { configuration in
            configuration.reconnectBurst = 3
            configuration.reconnectsPerSecond = 2
        }
        let page = PageSession(
            id: "p", viewer: nil, sceneID: "user-profile", arguments: [:], renderer: HTMLRenderer(), configuration: fixture.server.configuration,
            logger: Logger(label: "test"))
        let start = ContinuousClock.now
        for _ in 0..<3 { #expect(await page.mayAttach(now: start)) }
        #expect(await !page.mayAttach(now: start), "past the burst")
        #expect(await page.mayAttach(now: start + .milliseconds(500)), "one more each half second")
        #expect(await !page.mayAttach(now: start + .milliseconds(500)))
    }
}
