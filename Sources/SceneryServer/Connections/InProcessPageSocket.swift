import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import NIOWebSocket
import Scenery

/// What an in-process page socket carries to its client: the server's messages, then its
/// close (the code and reason a WebSocket's close frame would carry).
package enum InProcessPageEvent: Sendable {
    case text(String)
    case closed(code: Int, reason: String)
}

/// A page socket with no network under it, for the test kit (`SceneryServerTesting`'s
/// `.inProcess` transport): attached to its session through the same checks as a
/// WebSocket's (``SceneryServer/attachPageSocket(_:peer:socket:refuse:)``), it hands the
/// session's messages to `deliver` in order and takes the page's messages as the socket
/// handler does (one at a time; a page that keeps sending what is refused is closed).
package final class InProcessPageConnection: Sendable {
    private let session: PageSession
    private let connection: Int
    private let socket: InProcessPageSocket

    fileprivate init(session: PageSession, connection: Int, socket: InProcessPageSocket) {
        self.session = session
        self.connection = connection
        self.socket = socket
    }

    /// Hands the page's message to its session; the socket closes (as a WebSocket's would)
    /// when the session let go of it or the page keeps sending what is refused.
    package func send(_ text: String) async {
        guard !socket.isClosed else { return }
        if let close = await session.take(text, from: connection) {
            socket.closeOnce(code: Int(UInt16(webSocketErrorCode: close.code)), reason: close.reason ?? "")
        }
    }

    /// Closes the socket from the page's side: its session keeps the page for a reconnect.
    package func close() async {
        socket.closeOnce(code: 1000, reason: "")
        await session.detach(connection)
    }
}

extension SceneryServer {
    /// Opens a page socket in process for `uri` (`/live?session=…&since=…&protocol=…`, as a
    /// page's socket address), as the request with `headers` would over a WebSocket: the
    /// connection, or `nil` when the server refused it (`deliver` then got the close).
    package func connectInProcess(
        uri: String, headers: HTTPFields, deliver: @escaping @Sendable (InProcessPageEvent) -> Void
    ) async -> InProcessPageConnection? {
        let request = Request(
            head: HTTPRequest(method: .get, scheme: "http", authority: "localhost", path: uri, headerFields: headers), body: .init(buffer: ByteBuffer()))
        let socket = InProcessPageSocket(deliver: deliver)
        guard
            let (session, connection) = await attachPageSocket(
                request, peer: "127.0.0.1", socket: socket,
                refuse: { code, reason in socket.closeOnce(code: Int(UInt16(webSocketErrorCode: code)), reason: reason) })
        else { return nil }
        return InProcessPageConnection(session: session, connection: connection, socket: socket)
    }
}

/// The session's side of an in-process socket.
private final class InProcessPageSocket: PageSocket {
    private let deliver: @Sendable (InProcessPageEvent) -> Void
    private let state = Locked(false)  // closed; the sanitizer sees this lock (see `Locked`)

    init(deliver: @escaping @Sendable (InProcessPageEvent) -> Void) {
        self.deliver = deliver
    }

    var isClosed: Bool { state.withLock { $0 } }

    func send(_ text: String) {
        // Delivered under the lock, so messages keep their order and none follows the close.
        state.withLock { closed in
            if !closed { deliver(.text(text)) }
        }
    }

    var unwritten: Int { 0 }
    var unwrittenBytes: Int { 0 }

    func close() { closeOnce(code: 1000, reason: "") }

    func closeOnce(code: Int, reason: String) {
        state.withLock { closed in
            guard !closed else { return }
            closed = true
            deliver(.closed(code: code, reason: reason))
        }
    }
}
