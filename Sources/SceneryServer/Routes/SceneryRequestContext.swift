import Hummingbird
import NIOCore

/// The request context of the server's routes: Hummingbird's context, plus the address
/// the request came from (for the preview's loopback rule, with the client a trusted proxy
/// names, and the per-address page limit).
public struct SceneryRequestContext: RequestContext, RemoteAddressRequestContext {
    /// Hummingbird's per-request storage.
    public var coreContext: CoreRequestContextStorage
    /// The peer's address; `nil` when the request did not come over a socket (router tests).
    public let remoteAddress: SocketAddress?

    /// Creates the context of a request arriving on `source.channel`.
    public init(source: ApplicationRequestContextSource) {
        coreContext = .init(source: source)
        remoteAddress = source.channel.remoteAddress
    }

    /// The peer's IP address as text, or `"unknown"`.
    var peer: String { remoteAddress?.ipAddress ?? "unknown" }
}
