import Foundation
import HTTPTypes
import Hummingbird
import HummingbirdTesting
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
    /// Every page opened in `body` is closed when it returns.
    public func test<Value: Sendable>(_ transport: PageTestTransport, _ body: @escaping @Sendable (PageTestClient) async throws -> Value) async throws
        -> Value
    {
        let setup: TestingSetup = transport == .live ? .live : .router
        return try await application().test(setup) { http in
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
}
