import HTTPTypes
import Hummingbird
import NIOCore

/// How a test reaches an application: `.router` hands each request to its responder in the
/// test's process (no socket: a request has no peer address), `.live` runs the server on a
/// free loopback port and sends each request over a connection of its own.
package enum HTTPTestMode: Sendable {
    case router
    case live
}

/// A client of an application under test (`ApplicationProtocol.test(_:_:)`).
///
/// ```swift
/// try await server.application().test(.router) { client in
///     let response = try await client.execute(uri: "/", method: .get)
///     #expect(response.status == .ok)
/// }
/// ```
package protocol HTTPTestClient: Sendable {
    /// Sends one request, its headers as given (``execute(uri:method:headers:body:)`` adds
    /// the body's length), and returns the whole response.
    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> HTTPTestResponse
    /// The server's port on loopback (`.live`), or `nil` when no server listens (`.router`).
    var port: Int? { get }
}

extension HTTPTestClient {
    /// Sends one request, with its body's length when it has one, and returns the whole
    /// response.
    package func execute(uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil) async throws
        -> HTTPTestResponse
    {
        var headers = headers
        if let body { headers[.contentLength] = String(body.readableBytes) }
        return try await executeRequest(uri: uri, method: method, headers: headers, body: body)
    }

    /// Sends one request and returns what `check` makes of the whole response.
    ///
    /// ```swift
    /// try await client.execute(uri: "/", method: .get) { response in
    ///     #expect(response.status == .ok)
    /// }
    /// ```
    @discardableResult
    package func execute<Result>(
        uri: String, method: HTTPRequest.Method, headers: HTTPFields = [:], body: ByteBuffer? = nil,
        testCallback check: (HTTPTestResponse) async throws -> Result
    ) async throws -> Result {
        try await check(execute(uri: uri, method: method, headers: headers, body: body))
    }
}

/// A whole response: its head, its body, and the trailing fields when it sent some.
package struct HTTPTestResponse: Sendable {
    package let head: HTTPResponse
    package let body: ByteBuffer
    package let trailerHeaders: HTTPFields?

    package var status: HTTPResponse.Status { head.status }
    package var headers: HTTPFields { head.headerFields }
}

extension ApplicationProtocol {
    /// Runs `body` with a client of this application, reached as `mode` says; the
    /// application's services run meanwhile and stop when `body` returns or throws.
    package func test<Value>(_ mode: HTTPTestMode, _ body: (any HTTPTestClient) async throws -> Value) async throws -> Value {
        switch mode {
        case .router: try await RouterTestClient.run(self, body)
        case .live: try await LoopbackTestClient.run(self, body)
        }
    }
}
