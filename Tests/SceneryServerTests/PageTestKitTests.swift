import Scenery
import SceneryPageProtocol
import SceneryServer
import SceneryServerTesting
import Testing

/// The server's test kit: one test body over both transports, pages that speak the typed
/// page protocol, waits that end on the server's messages.
@Suite(.timeLimit(.minutes(5))) struct PageTestKitTests {
    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    @Test(arguments: PageTestTransport.allCases)
    func aLikeIsAnsweredToTheLikerAndReachesAnotherViewer(transport: PageTestTransport) async throws {
        try await fixture.server.test(transport) { client in
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
            let carol = try await client.open("user-profile", arguments: ["user": "1"], as: "7")
            #expect(bob.state.text(of: "blogs/blog.26.likes") == "Likes: 0")
            let like = try await bob.tap("blogs/blog.26.like")
            let answered = try await bob.waitForAnswer(to: like)
            #expect(answered.text(of: "blogs/blog.26.like") == "Unlike")
            #expect(answered.text(of: "blogs/blog.26.likes") == "Likes: 1")
            let seen = try await carol.waitUntil("Bob's like") { $0.text(of: "blogs/blog.26.likes") == "Likes: 1" }
            #expect(seen.text(of: "blogs/blog.26.like") == "Like", "Carol's own button is hers")
            #expect(try await fixture.store.blog(26, viewer: "2").likes == 1)
        }
    }

    @Test(arguments: PageTestTransport.allCases)
    func aDeclinedConfirmationChangesNothing(transport: PageTestTransport) async throws {
        try await fixture.server.test(transport) { client in
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
            let unfollow = try await bob.tap("info/follow")
            let asked = try await bob.waitUntil("the unfollow question") { $0.question != nil }
            #expect(asked.question?.title == "Unfollow Alice Liddell?")
            try await bob.answer(false)
            let answered = try await bob.waitForAnswer(to: unfollow)
            #expect(answered.text(of: "info/follow") == "Unfollow", "still following")
            #expect(try await fixture.store.profile(of: "1", viewer: "2").viewerFollows == true)
        }
    }

    @Test(arguments: PageTestTransport.allCases)
    func theKitSaysClearlyWhatItCannotDo(transport: PageTestTransport) async throws {
        try await fixture.server.test(transport) { client in
            await #expect(throws: PageTestError.self) { try await client.open("user-profil", arguments: ["user": "1"]) }
            let visitor = try await client.open("user-profile", arguments: ["user": "1"])
            let missing = await #expect(throws: PageTestError.self) { try await visitor.tap("drafts/compose") }
            #expect(missing?.description.hasPrefix("The page has no control drafts/compose;") == true)
            await #expect(throws: PageTestError.self) { try await visitor.answer(true) }
            // A control the server refuses for this viewer: refused in words, and answered.
            await visitor.send(.event(node: "sections#drafts", action: .random()))
            let refused = try await visitor.waitUntil("a refusal") { !$0.refusals.isEmpty }
            #expect(refused.refusals.count == 1)
        }
    }

    @Test(arguments: PageTestTransport.allCases)
    func aDraftNeverReachesAnotherViewersPage(transport: PageTestTransport) async throws {
        try await fixture.server.test(transport) { client in
            let alice = try await client.open("user-profile", arguments: ["user": "1"], as: "1")
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
            #expect(alice.tree.node(withID: "sections") != nil, "Alice's own page has her drafts tab")
            let tab = try await alice.tap("sections#drafts")
            try await alice.waitForAnswer(to: tab)
            let compose = try await alice.tap("drafts/compose", values: ["title": "Secret plans", "body": "Nobody else reads this."])
            let saved = try await alice.waitForAnswer(to: compose)
            #expect(saved.refusals.isEmpty, "\(saved.refusals)")
            // Bob's page hears everything Alice's changes send it, and never the draft.
            let like = try await bob.tap("blogs/blog.26.like")
            let bobs = try await bob.waitForAnswer(to: like)
            #expect(bobs.tree.node(withID: "sections") == nil)
            #expect(!bobs.messages.contains { "\($0)".contains("Secret plans") })
        }
    }
}
