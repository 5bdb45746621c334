/// How a test reaches the server: the same test body runs over either.
///
/// ```swift
/// @Test(arguments: PageTestTransport.allCases)
/// func aLikeReachesTheOtherViewer(transport: PageTestTransport) async throws {
///     try await server.test(transport) { client in … }
/// }
/// ```
public enum PageTestTransport: String, Sendable, CaseIterable, CustomStringConvertible {
    /// No network: requests go straight to the server's router, and a page's socket is
    /// attached to its session in process, through the same checks as a WebSocket's. Fast,
    /// and what most tests want.
    case inProcess
    /// The server listens on a free loopback port; requests and the page socket (a real
    /// WebSocket) go through it, as a browser's would.
    case live

    public var description: String { rawValue }
}
