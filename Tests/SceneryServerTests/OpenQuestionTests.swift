import Foundation
import ProfileDemoStore
import Scenery
import SceneryLive
import SceneryPageProtocol
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// A question the server asks ("Unfollow Alice Liddell?") holds up its action; it outlives
/// the page's socket, and a server that went away with it is asked for by the next one, for
/// the same action, so the person answers once.
@Suite(.timeLimit(.minutes(5))) struct OpenQuestionTests {
    /// Two servers of one site, as `ResumeTests` makes them.
    let site: ResumeTests
    var store: SQLiteProfileStore { site.store }
    var first: SceneryServer { site.first }
    var second: SceneryServer { site.second }
    var sockets: LiveSocketTests { site.sockets }

    init() throws { site = try ResumeTests() }

    var bob: String {
        "\(SceneryServer.cookieName)=\(first.cookies.value(for: "2", expiry: Date().addingTimeInterval(3600)))"
    }

    static let unfollow = PageProtocol.ClientMessage.event(node: "info/follow", action: .named("unfollow-alice"))
    static let asked: @Sendable (Received) -> Bool = { !$0.of("confirm").isEmpty }

    @Test func aQuestionNamesTheActionItHoldsUpAndIsAskedAgainWhenThePageReconnects() async throws {
        #expect(try await store.profile(of: "1", viewer: "2").viewerFollows == true)
        try await first.application().test(.live) { client in
            let session = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: bob)
            let before = try await sockets.talk(client, session: session, cookie: bob, send: [Self.unfollow], until: Self.asked)
            let question = try #require(before.of("confirm").first)
            #expect(question["action"]?.stringValue == "unfollow-alice")
            #expect(question["title"]?.stringValue == "Unfollow Alice Liddell?")
            // The socket closed unanswered; the page comes back within the grace period.
            let number = try #require(question["question"]?.intValue)
            let after = try await sockets.converse(
                client, session: session, cookie: bob,
                [.waitUntil(Self.asked), .send(.answer(question: number, accept: true)), .waitUntil(ResumeTests.applied("unfollow-alice"))]
            ).received
            #expect(after.of("confirm").count == 1, "asked again, once")
            #expect(after.of("confirm").first?["question"]?.intValue == number, "the same question")
            #expect(after.of("refused").isEmpty, "\(after.all)")
        }
        #expect(try await store.profile(of: "1", viewer: "2").viewerFollows == false, "the answer given after the reconnect decided")
    }

    @Test func theNextServerAsksAgainForTheSameActionAndOneAnswerDoesIt() async throws {
        let (session, token) = try await first.application().test(.live) { client in
            let session = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: bob)
            let received = try await sockets.talk(client, session: session, cookie: bob, until: { !$0.of("resume").isEmpty })
            _ = try await sockets.talk(client, session: session, cookie: bob, send: [Self.unfollow], until: Self.asked)
            return (session, try ResumeTests.token(in: received))
        }
        // The first server is gone with its question; the page resumes on the second and
        // sends the unfollow again, under its key.
        try await second.application().test(.live) { client in
            let received = try await sockets.converse(
                client, session: session, cookie: bob, resume: token, [.send(Self.unfollow), .waitUntil(Self.asked)]
            ).received
            let question = try #require(received.of("confirm").first)
            #expect(question["action"]?.stringValue == "unfollow-alice", "the page knows it as the question it has open")
            let number = try #require(question["question"]?.intValue)
            _ = try await sockets.talk(
                client, session: session, cookie: bob, send: [.answer(question: number, accept: true)], until: ResumeTests.applied("unfollow-alice"))
        }
        #expect(try await store.profile(of: "1", viewer: "2").viewerFollows == false)
    }
}
