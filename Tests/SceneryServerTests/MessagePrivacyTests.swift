import Foundation
import Scenery
import SceneryPageProtocol
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// Every message a page's socket carries, while the owner writes her drafts with other
/// people's pages of her profile open: none of theirs carries a word of them. Every type of
/// message the server sends has a row here, so a type added without one fails the inventory.
@Suite(.timeLimit(.minutes(5))) struct MessagePrivacyTests {
    /// What Alice writes, the draft she keeps (draft 1, which she publishes, is public
    /// after), and her drafts tab.
    static let secrets = ["The Queen's croquet plan", "Flamingos for mallets", "草稿：下一篇茶会", "还没写完", "sections#drafts"]

    /// Each server message type, and how it is held to privacy.
    static let messageTypes: [String: String] = [
        "patch": "Asked below: every patch an HTML page of another viewer receives.",
        "patches": "Asked below: every view-tree patch another viewer's page receives.",
        "reset": "Asked below, and the whole page a reconnect sends (LiveSocketTests.aReconnectReplaysWhatThePageMissed).",
        "tree": "Asked below: the whole tree a view-tree page is sent again.",
        "announce": "Asked below: what Alice's writes mean to the others (a publish, never a draft).",
        "confirm": "A question for the page's own viewer about their own action; asked below for all.",
        "navigate": "An address the page's own viewer chose; its scene opens for them (PrivacyTests, navigation arguments).",
        "errors": "The scene file's problems, to a page on this machine opened by its author (ServeCommandTests).",
        "refused": "Why the page's own message was refused; asked below for all (LiveSocketTests.forgedMessages…).",
        "resume": "The page's own resume token, signed for its viewer (ResumeTests).",
        "title": "The scene's title; asked below for all.",
        "theme": "A stylesheet's address; asked below for all.",
        "trace": "The page's own recent events, to its own socket, from a development server only (TraceMessageTests).",
    ]

    let fixture: ServerFixture

    init() throws { fixture = try ServerFixture() }

    @Test func everyMessageTypeHasARowHere() {
        let types = Set(PageProtocol.ServerMessage.types)
        #expect(types.subtracting(Self.messageTypes.keys).isEmpty, "types with no row: \(types.subtracting(Self.messageTypes.keys).sorted())")
        #expect(Set(Self.messageTypes.keys).subtracting(types).isEmpty, "rows for types no longer sent")
    }

    @Test(arguments: PageTestTransport.allCases)
    func whatTheOwnerWritesReachesNoOtherPage(transport: PageTestTransport) async throws {
        try await fixture.server.test(transport) { client in
            let alice = try await client.open("user-profile", arguments: ["user": "1"], as: "1")
            let others = [
                try await client.open("user-profile", arguments: ["user": "1"], as: "2"),
                try await client.open("user-profile", arguments: ["user": "1"], as: "2", format: .html),
                try await client.open("user-profile", arguments: ["user": "1"]),
                try await client.open("user-profile", arguments: ["user": "1"], format: .html),
                try await client.open("user-profile", arguments: ["user": "2"], as: "2"),
            ]
            try await alice.waitForAnswer(to: try await alice.tap("sections#drafts"))
            let written = try await alice.waitForAnswer(
                to: try await alice.tap("drafts/compose", values: ["title": Self.secrets[0], "body": Self.secrets[1]]))
            #expect(written.refusals.isEmpty, "\(written.refusals)")
            #expect(Self.encoded(written.messages).contains(Self.secrets[0]), "her own page shows what she wrote")
            // Then she publishes "Through the looking glass": the others are told of the new
            // blog, after anything her draft's write would have sent them.
            let publish = try await alice.tap("drafts/draft.1.publish")
            try await alice.waitUntil("the publish question") { $0.question != nil }
            try await alice.answer(true)
            _ = try await alice.waitForAnswer(to: publish)
            for page in others.prefix(4) {
                let heard = try await page.waitUntil("the new blog") { !$0.announcements.isEmpty }
                #expect(heard.announcements == ["New blogs: 1"])
            }
            for page in others {
                let messages = Self.encoded(page.state.messages)
                for secret in Self.secrets { #expect(!messages.contains(secret), "\(page.session) was sent \(secret)") }
            }
        }
    }

    /// Each message as it goes on the wire, one per line.
    static func encoded(_ messages: [PageProtocol.ServerMessage]) -> String {
        messages.map(\.text).joined(separator: "\n")
    }
}
