import Logging
import WSClient

extension HTTPTestClient {
    /// Opens a WebSocket to `path` on the server under test (`.live`: a router client has no
    /// socket to open) and runs `handler` with it; returns the server's close frame.
    ///
    /// ```swift
    /// try await server.application().test(.live) { client in
    ///     try await client.ws("/live?session=\(id)") { inbound, outbound, _ in … }
    /// }
    /// ```
    @discardableResult
    package func ws(
        _ path: String, configuration: WebSocketClientConfiguration = .init(), logger: Logger = Logger(label: "SceneryServerTesting"),
        handler: @escaping WebSocketDataHandler<WebSocketClient.Context>
    ) async throws -> WebSocketCloseFrame? {
        guard let port else { throw LoopbackTestError.noSocketWithoutServer }
        return try await WebSocketClient.connect(url: "ws://localhost:\(port)\(path)", configuration: configuration, logger: logger, handler: handler)
    }
}
