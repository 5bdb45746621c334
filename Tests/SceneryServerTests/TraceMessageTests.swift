import Foundation
import ProfileDemoStore
import Scenery
import SceneryLive
import SceneryPageProtocol
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// `trace` over the page socket: what the inspector lists (the page's recent events and
/// their routes), for a terminal or native client, from a development server only.
@Suite(.timeLimit(.minutes(5))) struct TraceMessageTests {
    let store: SQLiteProfileStore
    let sockets: LiveSocketTests

    init() throws {
        store = try SQLiteProfileStore.inMemory(seedDemoData: true)
        sockets = LiveSocketTests(fixture: try ServerFixture())
    }

    func server(inspecting: Bool) throws -> SceneryServer {
        try ResumeTests.server(of: store, ledger: store) { $0.enablesInspector = inspecting }
    }

    func bob(on server: SceneryServer) -> String {
        "\(SceneryServer.cookieName)=\(server.cookies.value(for: "2", expiry: Date().addingTimeInterval(3600)))"
    }

    static let like = PageProtocol.ClientMessage.event(node: "blogs/blog.26.like", action: .named("like-26-traced"))

    @Test func aDevelopmentServerAnswersATraceWithThePagesOwnEvents() async throws {
        let server = try server(inspecting: true)
        let bob = bob(on: server)
        try await server.application().test(.live) { client in
            let session = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: bob)
            let received = try await sockets.converse(
                client, session: session, cookie: bob,
                // Sent together: the trace is answered after the like it follows.
                [.send(Self.like), .send(.trace), .waitUntil { !$0.of("trace").isEmpty }]
            ).received
            guard case .array(let events)? = received.of("trace").first?["events"] else {
                Issue.record("no trace: \(received.all)")
                return
            }
            let like = try #require(events.last?.stringValue, "\(events)")
            #expect(like.hasPrefix("blog.like from blogs/blog.26.like: module blogs:"), "\(events)")
            // With its time and the patch it wrote: Bob's row, at once (the like is optimistic).
            #expect(like.firstMatch(of: /\(handled by module blogs\) · \d+ µs · patches: blogs \(blogs\/blog\.26\) \d+ ops? \d+ B \+\d+ µs/) != nil, "\(like)")
        }
    }

    @Test func aServerWithoutTheInspectorRefusesATrace() async throws {
        let server = try server(inspecting: false)
        let bob = bob(on: server)
        try await server.application().test(.live) { client in
            let session = try await sockets.openPage(client, "/scenes/user-profile?user=1", cookie: bob)
            let received = try await sockets.talk(client, session: session, cookie: bob, send: [.trace]) { !$0.of("refused").isEmpty }
            #expect(received.of("trace").isEmpty)
            #expect(received.of("refused").first?["message"]?.stringValue == "This server shows no traces: start it with --inspect (development only).")
        }
    }
}
