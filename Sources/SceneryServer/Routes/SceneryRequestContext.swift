import Hummingbird
import NIOCore

/// The request context of the server's routes: Hummingbird's context, plus the address
/// the request came from (for the preview's loopback rule and the per-address page limit).
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

    /// Whether the request came from this machine (127.0.0.0/8 or ::1).
    var isFromLoopback: Bool {
        guard let address = remoteAddress?.ipAddress else { return false }
        return SceneryServer.Configuration.isLoopback(address)
    }

    /// The peer's IP address as text, or `"unknown"`.
    var peer: String { remoteAddress?.ipAddress ?? "unknown" }
}
