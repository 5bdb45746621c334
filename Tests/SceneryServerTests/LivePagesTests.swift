import Foundation
import Hummingbird
import HummingbirdTesting
import HummingbirdWSTesting
import ProfileDomain
import Scenery
import SceneryPageProtocol
import Testing

@testable import SceneryServer

/// Pages live across viewers: what one person changes reaches every other open page that
/// shows it, as a patch to what changed, through the page's own socket.
@Suite(.timeLimit(.minutes(1))) struct LivePagesTests {
    let fixture: ServerFixture
    let sockets: LiveSocketTests

    init() throws {
        fixture = try ServerFixture()
        sockets = LiveSocketTests(fixture: fixture)
    }

    @Test func anotherViewersLikeReachesAnOpenPageAsAPatchToThatRow() async throws {
        let (bob, carol) = (fixture.cookie(for: "2"), fixture.cookie(for: "7"))
        let likes = try await fixture.store.blog(26, viewer: "7").likes
        try await fixture.server.application().test(.live) { client in
            let bobsPage = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: bob)
            let carolsPage = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: carol)
            let (received, _) = try await sockets.converse(
                client, session: carolsPage, cookie: carol,
                [
                    .run {
                        _ = try await sockets.talk(client, session: bobsPage, cookie: bob, send: [.event(node: "blogs/blog.26.like")]) {
                            !$0.of("patch").isEmpty
                        }
                    },
                    .waitUntil { !$0.of("patch").isEmpty },
                ])
            let operations = received.of("patch").flatMap { $0["operations"].items }
            #expect(!operations.isEmpty, "Bob's like reached Carol's page without a reload")
            for operation in operations {
                let id = operation["id"]?.stringValue ?? ""
                #expect(id.hasPrefix("blogs/blog.26"), "only that row changes: \(operation)")
            }
            let html = operations.compactMap { $0["html"]?.stringValue }.joined()
            #expect(html.contains("Likes: \(likes + 1)"), "the new count: \(html)")
            #expect(!html.contains(">Unlike</button>"), "Carol's own like state, not Bob's: \(html)")
        }
    }

    @Test func aDraftWrittenElsewhereReachesItsOwnersPageAndNoOneElses() async throws {
        let (alice, bob) = (fixture.cookie(for: "1"), fixture.cookie(for: "2"))
        try await fixture.server.application().test(.live) { client in
            let alicesPage = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: alice)
            let bobsPage = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: bob)
            let store = fixture.store
            let (forAlice, _) = try await sockets.converse(
                client, session: alicesPage, cookie: alice,
                [
                    .send(.event(node: "sections#drafts")),
                    .waitUntil { $0.all.description.contains("Through the looking glass") },
                    .run {
                        // An import from elsewhere: a new draft, and a new name Bob's page shows.
                        var data = try store.exportData()
                        data.drafts.append(Draft(id: 77, owner: "1", title: "Written in another tab", body: "", editedAt: Date()))
                        if let index = data.users.firstIndex(where: { $0.id == "1" }) { data.users[index].name = "Alice P. Liddell" }
                        try store.importData(data)
                    },
                    .waitUntil { $0.all.description.contains("Written in another tab") },
                ])
            #expect(forAlice.all.description.contains("Written in another tab"), "the owner's open Drafts tab shows it")
            let forBob = try await sockets.talk(client, session: bobsPage, cookie: bob, send: []) {
                $0.all.description.contains("Alice P. Liddell")
            }
            #expect(forBob.all.description.contains("Alice P. Liddell"), "Bob's page is live too")
            #expect(!forBob.all.description.contains("Written in another tab"), "but never receives a byte of a draft")
        }
    }

    @Test func anotherViewersLikeIsAnnouncedOnOpenPagesWithoutSayingWhoAndNeverToTheLiker() async throws {
        let (bob, carol) = (fixture.cookie(for: "2"), fixture.cookie(for: "7"))
        try await fixture.server.application().test(.live) { client in
            let bobsPage = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: bob)
            let carolsPage = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: carol)
            let bobHeard = Received()
            let (carolHeard, _) = try await sockets.converse(
                client, session: carolsPage, cookie: carol,
                [
                    .run {
                        let heard = try await sockets.talk(client, session: bobsPage, cookie: bob, send: [.event(node: "blogs/blog.26.like")]) {
                            !$0.of("patch").isEmpty
                        }
                        for message in heard.all { bobHeard.append(message.compactJSON) }
                    },
                    .waitUntil { !$0.of("announce").isEmpty },
                ])
            let announcements = carolHeard.of("announce").flatMap { $0["texts"].items.compactMap(\.stringValue) }
            #expect(announcements == ["New like on “A mad tea party, part 3”"])
            #expect(!announcements.joined().contains("Bob"), "who liked it is not said")
            #expect(bobHeard.of("announce").isEmpty, "the liker's own page is not told of the like")
        }
    }

    @Test func aDraftPublishedOnTheOwnersPageIsAnnouncedToOthersAndNotToHer() async throws {
        let (alice, bob) = (fixture.cookie(for: "1"), fixture.cookie(for: "2"))
        let draft = 1  // Alice's "Through the looking glass"
        try await fixture.server.application().test(.live) { client in
            let alicesPage = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: alice)
            let bobsPage = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: bob)
            let aliceHeard = Received()
            let (bobHeard, _) = try await sockets.converse(
                client, session: bobsPage, cookie: bob,
                [
                    .run {
                        let (heard, _) = try await sockets.converse(
                            client, session: alicesPage, cookie: alice,
                            [
                                .send(.event(node: "sections#drafts")),
                                .waitUntil { $0.all.description.contains("drafts/draft.\(draft).publish") },
                                .send(.event(node: "drafts/draft.\(draft).publish", action: .named("publish-draft-one"))),
                                .waitUntil { !$0.of("confirm").isEmpty },
                                .send(.answer(question: 1, accept: true)),
                                // Done when her page hears the action was applied.
                                .waitUntil { $0.of("resume").contains { $0["applied"].items.contains("publish-draft-one") } },
                            ])
                        for message in heard.all { aliceHeard.append(message.compactJSON) }
                    },
                    .waitUntil { !$0.of("announce").isEmpty },
                ])
            let announcements = bobHeard.of("announce").flatMap { $0["texts"].items.compactMap(\.stringValue) }
            #expect(announcements == ["New blogs: 1"])
            #expect(aliceHeard.of("refused").isEmpty, "\(aliceHeard.of("refused"))")
            #expect(aliceHeard.of("announce").isEmpty, "her own page is not told what she did: \(aliceHeard.of("announce"))")
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
