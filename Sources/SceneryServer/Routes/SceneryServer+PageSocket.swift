import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOWebSocket
import Scenery
import SceneryPageProtocol
import ServiceLifecycle

/// The page socket: which upgrades are taken, and attaching a socket (over a WebSocket or in
/// process) to its page's session.
extension SceneryServer {
    /// Only same-origin pages may open a page socket, and only for a session of theirs.
    func mayUpgrade(_ request: Request) -> Bool {
        guard sameOrigin(request) else {
            logger.notice("refused a WebSocket upgrade from origin \(request.headers[.origin] ?? "none") to \(request.head.authority ?? "no authority")")
            return false
        }
        return request.uri.queryParameters["session"] != nil
    }

    /// Whether a request opens a page socket (`/live` from a page of this site, naming its
    /// session): the inbox that will serve it, or `nil` (the upgrade is refused with 400).
    func acceptPageSocket(_ head: HTTPRequest) async -> PageSocketInbox? {
        let request = Request(head: head, body: RequestBody(buffer: ByteBuffer()))
        guard request.uri.path == "/live", mayUpgrade(request) else { return nil }
        return PageSocketInbox { channel in await self.attachPageSocket(request, channel: channel) }
    }

    /// Attaches an upgraded page socket to its page's session, or closes it saying why: a
    /// page of another version of the protocol or whose session ended is told to load
    /// itself again; a socket of another sign-in is refused.
    func attachPageSocket(_ request: Request, channel: any Channel) async -> (PageSession, Int)? {
        await attachPageSocket(
            request, peer: channel.remoteAddress?.ipAddress ?? "unknown", socket: ChannelPageSocket(channel: channel),
            refuse: { code, reason in PageSocketHandler.close(channel, code: code, reason: reason) })
    }

    /// Attaches a page socket of any transport (a WebSocket's channel, the test kit's
    /// in-process socket) to its page's session, through the same checks; `refuse` closes
    /// the socket with a code and a reason instead.
    func attachPageSocket(
        _ request: Request, peer: String, socket: @autoclosure () -> any PageSocket, refuse: (WebSocketErrorCode, String) -> Void
    ) async -> (PageSession, Int)? {
        func close(_ code: WebSocketErrorCode, _ reason: String) -> (PageSession, Int)? {
            refuse(code, reason)
            return nil
        }
        let id = request.uri.queryParameters["session"].map(String.init) ?? ""
        // Every number a client sends is checked where it enters: a page resumed with a
        // message number near Int.max would overflow its next message's.
        let since: Int
        do {
            since = try PageProtocol.sequence(fromQuery: request.uri.queryParameters["since"])
        } catch {
            logger.notice("refused page \(id.prefix(64)): a since that is no message number")
            return close(.policyViolation, error.message)
        }
        // The page says which version of the page protocol it speaks; one from another
        // version of the site is told to load itself again (which brings this server's script).
        let spoken = request.uri.queryParameters["protocol"].map(String.init)
        let reload = WebSocketErrorCode(codeNumber: PageProtocol.reloadCloseCode)
        guard spoken == String(PageProtocol.version) else {
            return close(reload, PageProtocol.versionMismatchReason(spoken: spoken))
        }
        // And which node kinds it shows: a view-tree client is sent no other (a page's
        // script names those of its version; the server draws its HTML).
        let kinds: PageProtocol.NodeKinds
        do {
            kinds = try PageProtocol.NodeKinds(query: request.uri.queryParameters[Substring(Self.kindsParameter)])
        } catch {
            logger.notice("refused page \(id.prefix(64)): \(error.message)")
            return close(.policyViolation, error.message)
        }
        guard let session = await sessions.session(id), await !session.hasEnded else {
            // A page whose server went away (or that was away past the grace period) comes
            // back with its resume token: make its page again from it.
            guard let token = request.uri.queryParameters["resume"].map(String.init) else {
                return close(reload, "This page's scene has ended; load the page again.")
            }
            do {
                let address = clientAddress(peer: peer, headers: request.headers)
                let session = try await resumePage(id, token: token, since: since, request: request, address: address, kinds: kinds)
                return (session, await session.attach(since: since, socket: socket()))
            } catch {
                // The page loads again: for whoever holds the socket's cookie now.
                logger.notice("did not resume page \(id.prefix(64)): \(error.logged)")
                // A stopping server sends the page on (it connects again, elsewhere), a page
                // being made already waits its turn; any other refusal has it load again.
                switch error {
                case .serverClosing: return close(.goingAway, error.reason)
                case .alreadyResuming: return close(Self.tryAgainLater, error.reason)
                default: return close(reload, error.reason)
                }
            }
        }
        // The socket belongs to the viewer the page was made for. A signed-out preview frame
        // (public data only) also serves its signed-in author's socket.
        guard session.viewer == viewer(of: request)?.id || (session.opening.isPreview && session.viewer == nil) else {
            logger.notice("refused page \(id): the socket's viewer is not the page's")
            return close(.policyViolation, "This page belongs to another sign-in; load it again.")
        }
        // The scene was sent for the kinds its client named; a socket naming others would
        // be sent patches of nodes it never had.
        if case .viewTree(let named) = session.opening.format, named != kinds {
            logger.notice("refused page \(id): the socket names other node kinds than its scene's request")
            return close(.policyViolation, "This socket names other node kinds than its scene; open the scene again naming the same.")
        }
        guard await session.mayAttach() else {
            logger.notice("refused page \(id): its sockets reconnect too often")
            return close(Self.tryAgainLater, "This page reconnects too often; it connects again in a moment.")
        }
        return (session, await session.attach(since: since, socket: socket()))
    }

    /// The close code that asks a client to connect again later (RFC 6455's registry: 1013).
    static let tryAgainLater = WebSocketErrorCode(codeNumber: 1013)
}
