import Foundation
import HTTPTypes
import Hummingbird
import Scenery
import SceneryPageProtocol
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// The endpoint for clients that read the view tree instead of HTML (a SwiftUI or UIKit
/// host, `scenery connect`): `/api/scenes/ID` gives the scene as a view-tree document with
/// its session; the page socket then carries view-tree patches, confirmations and
/// navigation, and takes taps and answers like a page's.
@Suite(.timeLimit(.minutes(5))) struct ViewTreeClientTests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
    }

    func open(_ client: some HTTPTestClient, _ uri: String, cookie: String?) async throws -> [String: JSONValue] {
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

    @Test(arguments: PageTestTransport.allCases)
    func aConfirmationAndAnotherViewersChangeReachTheClient(transport: PageTestTransport) async throws {
        try await fixture.server.test(transport) { client in
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
            let carol = try await client.open("user-profile", arguments: ["user": "1"], as: "7", format: .html)
            let unfollow = try await bob.tap("info/follow")
            let asked = try await bob.waitUntil("the unfollow question") { $0.question != nil }
            #expect(asked.question?.title == "Unfollow Alice Liddell?")
            try await bob.answer(false)
            try await bob.waitForAnswer(to: unfollow)
            // Carol likes a blog in her browser page; Bob's view-tree client sees the count change.
            let likes = bob.state.text(of: "blogs/blog.26.likes")
            try await carol.waitForAnswer(to: try await carol.tap("blogs/blog.26.like"))
            let seen = try await bob.waitUntil("Carol's like") { $0.text(of: "blogs/blog.26.likes") != likes }
            #expect(seen.text(of: "blogs/blog.26.likes") == "Likes: 1")
            #expect(seen.messages.contains { if case .patches = $0 { true } else { false } }, "as view-tree patches")
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
