import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import Scenery
import SceneryPageProtocol
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// The endpoint for clients that read the view tree instead of HTML (a SwiftUI or UIKit
/// host, `scenery connect`): `/api/scenes/ID` gives the scene as a view-tree document with
/// its session; the page socket then carries view-tree patches, confirmations and
/// navigation, and takes taps and answers like a page's.
@Suite(.timeLimit(.minutes(1))) struct ViewTreeClientTests {
    let fixture: ServerFixture
    let sockets: LiveSocketTests

    init() throws {
        fixture = try ServerFixture()
        sockets = LiveSocketTests(fixture: fixture)
    }

    func open(_ client: some TestClientProtocol, _ uri: String, cookie: String?) async throws -> [String: JSONValue] {
        let response = try await client.execute(uri: uri, method: .get, headers: cookie.map { [.cookie: $0] } ?? [:])
        #expect(response.headers[.contentType] == "application/json")
        guard case .object(let fields) = try JSONDecoder().decode(JSONValue.self, from: Data(String(buffer: response.body).utf8)) else {
            Issue.record("not a JSON object")
            return [:]
        }
        return fields
    }

    @Test func aSceneComesAsAViewTreeDocumentWithItsSession() async throws {
        try await fixture.server.application().test(.live) { client in
            let scene = try await open(client, "/api/scenes/user-profile?user=1", cookie: fixture.cookie(for: "2"))
            #expect(scene["type"] == "tree")
            #expect(scene["format"] == "scenery.view-tree")
            #expect(scene["sequence"] == 0)
            #expect(scene["protocol"] == 1)
            #expect(scene["scene"] == "user-profile")
            #expect(scene["session"]?.stringValue?.isEmpty == false)
            let root = try JSONValueEncoder().encode(scene["root"])
            let tree = try JSONDecoder().decode(ViewNode.self, from: Data(root.compactJSON.utf8))
            #expect(tree.node(withID: "blogs/blog.26.like") != nil)
            #expect(tree.node(withID: "sections") == nil, "Bob on Alice's profile: no drafts tab")
            let own = try await open(client, "/api/scenes/user-profile?user=1", cookie: fixture.cookie(for: "1"))
            let ownRoot = try JSONDecoder().decode(ViewNode.self, from: Data(try #require(own["root"]).compactJSON.utf8))
            #expect(ownRoot.node(withID: "sections") != nil, "Alice's own profile has her Blogs/Drafts switch")
        }
    }

    @Test(arguments: PageTestTransport.allCases)
    func aTapComesBackAsViewTreePatches(transport: PageTestTransport) async throws {
        try await fixture.server.test(transport) { client in
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
            let like = try await bob.tap("blogs/blog.26.like")
            let answered = try await bob.waitForAnswer(to: like)
            let updates = answered.messages.compactMap { message -> (Int, ModuleID?, [ViewPatch])? in
                guard case .patches(let sequence, let module, _, let patches) = message else { return nil }
                return (sequence, module, patches)
            }
            #expect(updates.first?.0 == 1, "the first numbered update")
            #expect(updates.first?.1 == "blogs")
            #expect(updates.first?.2.isEmpty == false)
            #expect(!answered.messages.contains { $0.type == "patch" }, "no DOM operations for a view-tree client")
            #expect(try await fixture.store.blog(26, viewer: "2").likedByViewer)
        }
    }

    @Test func aConfirmationAndAnotherViewersChangeReachTheClient() async throws {
        let bob = fixture.cookie(for: "2")
        let carol = fixture.cookie(for: "7")
        try await fixture.server.application().test(.live) { client in
            let scene = try await open(client, "/api/scenes/user-profile?user=1", cookie: bob)
            let session = try #require(scene["session"]?.stringValue)
            let carolsPage = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: carol)
            let received = try await sockets.converse(
                client, session: session, cookie: bob,
                [
                    .send(.event(node: "info/follow")), .waitUntil { !$0.of("confirm").isEmpty },
                    .send(.answer(question: 1, accept: false)),
                ]
            ).received
            #expect(received.of("confirm").first?["title"] == "Unfollow Alice Liddell?")
            // Carol likes a blog in her browser page; Bob's view-tree client sees the count change.
            let seen = try await sockets.converse(
                client, session: session, since: 0, cookie: bob,
                [
                    .waitUntil { _ in true },
                    .run {
                        _ = try await sockets.talk(client, session: carolsPage, cookie: carol, send: [.event(node: "blogs/blog.26.like")]) {
                            !$0.of("patch").isEmpty
                        }
                    },
                    .waitUntil { received in
                        received.of("patches").contains { $0["patches"]?.compactJSON.contains("blog.26.likes") == true }
                    },
                ]
            ).received
            #expect(!seen.of("patches").isEmpty)
        }
    }

    @Test func anUnknownSceneIsAJSONRefusal() async throws {
        try await fixture.server.application().test(.live) { client in
            let response = try await client.execute(uri: "/api/scenes/user-profil?user=1", method: .get)
            #expect(response.status == .notFound)
            #expect(String(buffer: response.body).contains(#""type":"refused""#))
            #expect(String(buffer: response.body).contains("did you mean 'user-profile'?"))
        }
    }
}
