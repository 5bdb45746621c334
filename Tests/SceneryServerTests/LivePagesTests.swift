import Foundation
import ProfileDemoDomain
import Scenery
import SceneryPageProtocol
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// Pages live across viewers: what one person changes reaches every other open page that
/// shows it, as a patch to what changed, through the page's own socket. Each page here is
/// the HTML page a browser gets, driven through the server's test kit.
@Suite(.timeLimit(.minutes(5))) struct LivePagesTests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture()
    }

    @Test(arguments: PageTestTransport.allCases)
    func anotherViewersLikeReachesAnOpenPageAsAPatchToThatRow(transport: PageTestTransport) async throws {
        let likes = try await fixture.store.blog(26, viewer: "7").likes
        try await fixture.server.test(transport) { client in
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2", format: .html)
            let carol = try await client.open("user-profile", arguments: ["user": "1"], as: "7", format: .html)
            try await bob.waitForAnswer(to: try await bob.tap("blogs/blog.26.like"))
            let seen = try await carol.waitUntil("Bob's like") { !$0.operations.isEmpty }
            for operation in seen.operations {
                #expect(operation.target.rawValue.hasPrefix("blogs/blog.26"), "only that row changes: \(operation)")
            }
            let html = seen.operations.compactMap(\.html).joined()
            #expect(html.contains("Likes: \(likes + 1)"), "the new count: \(html)")
            #expect(!html.contains(">Unlike</button>"), "Carol's own like state, not Bob's: \(html)")
        }
    }

    @Test(arguments: PageTestTransport.allCases)
    func aDraftWrittenElsewhereReachesItsOwnersPageAndNoOneElses(transport: PageTestTransport) async throws {
        let store = fixture.store
        try await fixture.server.test(transport) { client in
            let alice = try await client.open("user-profile", arguments: ["user": "1"], as: "1", format: .html)
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2", format: .html)
            try await alice.waitForAnswer(to: try await alice.tap("sections#drafts"))
            #expect(alice.state.operations.contains { $0.html?.contains("Through the looking glass") == true }, "her Drafts tab is open")
            // An import from elsewhere: a new draft, and a new name Bob's page shows.
            var data = try store.exportData()
            data.drafts.append(Draft(id: 77, owner: "1", title: "Written in another tab", body: "", editedAt: Date()))
            if let index = data.users.firstIndex(where: { $0.id == "1" }) { data.users[index].name = "Alice P. Liddell" }
            try store.importData(data)
            try await alice.waitUntil("the new draft") { $0.operations.contains { $0.html?.contains("Written in another tab") == true } }
            let bobs = try await bob.waitUntil("Alice's new name") { $0.operations.contains { $0.html?.contains("Alice P. Liddell") == true } }
            #expect(!bobs.messages.contains { "\($0)".contains("Written in another tab") }, "Bob's page is live too, and never receives a byte of a draft")
        }
    }

    @Test(arguments: PageTestTransport.allCases)
    func anotherViewersLikeIsAnnouncedOnOpenPagesWithoutSayingWhoAndNeverToTheLiker(transport: PageTestTransport) async throws {
        try await fixture.server.test(transport) { client in
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2", format: .html)
            let carol = try await client.open("user-profile", arguments: ["user": "1"], as: "7", format: .html)
            try await bob.waitForAnswer(to: try await bob.tap("blogs/blog.26.like"))
            let heard = try await carol.waitUntil("the announcement") { !$0.announcements.isEmpty }
            #expect(heard.announcements == ["New like on “A mad tea party, part 3”"])
            #expect(!heard.announcements.joined().contains("Bob"), "who liked it is not said")
            // Bob's page has heard all of its own like: its answer, and the patch before it.
            #expect(bob.state.announcements.isEmpty, "the liker's own page is not told of the like")
        }
    }

    @Test(arguments: PageTestTransport.allCases)
    func aDraftPublishedOnTheOwnersPageIsAnnouncedToOthersAndNotToHer(transport: PageTestTransport) async throws {
        let draft = 1  // Alice's "Through the looking glass"
        try await fixture.server.test(transport) { client in
            let alice = try await client.open("user-profile", arguments: ["user": "1"], as: "1", format: .html)
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2", format: .html)
            try await alice.waitForAnswer(to: try await alice.tap("sections#drafts"))
            let publish = try await alice.tap("drafts/draft.\(draft).publish")
            try await alice.waitUntil("the publish question") { $0.question != nil }
            try await alice.answer(true)
            let done = try await alice.waitForAnswer(to: publish)
            #expect(done.refusals.isEmpty, "\(done.refusals)")
            let heard = try await bob.waitUntil("the announcement") { !$0.announcements.isEmpty }
            #expect(heard.announcements == ["New blogs: 1"])
            #expect(alice.state.announcements.isEmpty, "her own page is not told what she did: \(alice.state.announcements)")
        }
    }
}

extension JSONValue? {
    /// The elements of an array value; empty for anything else.
    var items: [JSONValue] {
        if case .array(let items)? = self { return items }
        return []
    }
}
