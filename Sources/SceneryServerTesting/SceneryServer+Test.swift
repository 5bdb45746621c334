import Foundation
import HTTPTypes
import Hummingbird
import Scenery
import SceneryPageProtocol
import SceneryServer

extension SceneryServer {
    /// Runs `body` with a client of this server over `transport`: open pages as people
    /// would, tap, answer, and wait for what the server sends, over the typed page protocol.
    ///
    /// ```swift
    /// try await server.test(.inProcess) { client in
    ///     let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
    ///     let like = try await bob.tap("blogs/blog.26.like")
    ///     let state = try await bob.waitForAnswer(to: like)
    ///     #expect(state.tree.node(withID: "blogs/blog.26.like")?.text == "Unlike")
    /// }
    /// ```
    ///
    /// Every page opened in `body` is closed when it returns. Over `.live`, a request may take
    /// up to five minutes to arrive, whatever the server's `Configuration.headerTimeout` and
    /// `bodyTimeout`: in a test, a late request is a busy machine (a whole
    /// suite at once), not a slow client, and a 408 there fails a test that is about
    /// something else. Test the timeouts themselves against a server you run
    /// (`run(onListening:)`).
    public func test<Value: Sendable>(_ transport: PageTestTransport, _ body: @escaping @Sendable (PageTestClient) async throws -> Value) async throws
        -> Value
    {
        let setup: HTTPTestMode = transport == .live ? .live : .router
        return try await application(requestTimeout: Self.testRequestTimeout).test(setup) { http in
            let client = PageTestClient(server: self, http: http, transport: transport)
            do {
                let value = try await body(client)
                await client.closeAll()
                return value
            } catch {
                await client.closeAll()
                throw error
            }
        }
    }

    /// How long a test's request may take to arrive (see `test(_:_:)`).
    static let testRequestTimeout: Duration = .seconds(300)
}
