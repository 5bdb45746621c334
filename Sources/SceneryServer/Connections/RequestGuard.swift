import NIOCore

/// The first handler of every connection: it reads the raw bytes of each request's head
/// and body before any HTTP parsing, answers what is malformed or too slow, and steps aside
/// for a WebSocket.
///
/// HTTP/1.1 parsing of a connection's first request happens while the server decides
/// whether to upgrade it to a WebSocket, and a parse error there got no answer at all: the
/// connection stayed open. And nothing bounded how long a client may take to send a head
/// or a body. This handler:
/// - answers a head with a control character (a NUL, say) or a target that is not a path
///   (`/…`) with `400 Bad Request`, a head larger than ``Limits/maxHeadBytes`` with `431`,
///   a body announced where only a form may have one (any method but POST) with `400`, a
///   chunked body with `411 Length Required`, and closes the connection;
/// - answers a head not complete within ``Limits/headerTimeout`` of its first byte (or of
///   the connection's start), or a body not complete within ``Limits/bodyTimeout`` of its
///   head, with `408 Request Timeout`, and closes the connection.
///
/// Only the connection's first request is answered by this handler: on a kept-alive
/// connection a response may be on its way, so a later request that breaks a rule closes
/// the connection (Hummingbird's parser answers a malformed later request with 400 itself).
/// A request that asks for a WebSocket upgrade passes, and the handler removes itself.
final class RequestGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    struct Limits: Sendable {
        var headerTimeout: TimeAmount
        var bodyTimeout: TimeAmount
        var maxHeadBytes: Int
        var maxBodyBytes = 64 * 1024
    }

    private enum State {
        /// Reading a head; `started` once its first byte (or the connection) arrived.
        case head(started: Bool)
        /// Reading a body: this many bytes are still to come.
        case body(remaining: Int)
        /// Gone: upgraded, refused or closed.
        case done
    }

    private let limits: Limits
    private var state = State.head(started: false)
    private var head: [UInt8] = []
    private var requests = 0
    private var deadline: Scheduled<Void>?

    init(limits: Limits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startHead(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startHead(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        setDeadline(nil, context)
    }

    /// The first request's head is timed from the connection's start.
    private func startHead(_ context: ChannelHandlerContext) {
        guard case .head(started: false) = state, requests == 0 else { return }
        state = .head(started: true)
        setDeadline(limits.headerTimeout, context)
    }

    private func setDeadline(_ amount: TimeAmount?, _ context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
        guard let amount else { return }
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: amount) {
            let (handler, context) = bound.value
            handler.refuse(
                context, status: "408 Request Timeout",
                message: "The request did not arrive within the time allowed; send the whole request at once.")
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        if case .done = state {
            context.fireChannelRead(data)
            return
        }
        let buffer = unwrapInboundIn(data)
        var bytes = buffer.readableBytesView[...]
        while !bytes.isEmpty {
            switch state {
            case .done:
                bytes = bytes.suffix(0)
            case .body(let remaining):
                let taken = min(remaining, bytes.count)
                bytes = bytes.dropFirst(taken)
                if taken == remaining {
                    finishRequest(context)
                } else {
                    state = .body(remaining: remaining - taken)
                }
            case .head(let started):
                if !started {
                    state = .head(started: true)
                    setDeadline(limits.headerTimeout, context)
                }
                let before = head.count
                head.append(contentsOf: bytes)
                switch Self.check(head, maxBytes: limits.maxHeadBytes) {
                case .incomplete:
                    bytes = bytes.suffix(0)
                case .tooLarge:
                    return refuse(
                        context, status: "431 Request Header Fields Too Large", message: "The request's headers are too large.", passing: data)
                case .malformed(let reason):
                    return refuse(context, status: "400 Bad Request", message: reason, passing: data)
                case .complete(let end, let request):
                    bytes = bytes.dropFirst(end - before)
                    head = []
                    if let refusal = bodyRefusal(request) {
                        return refuse(context, status: refusal.status, message: refusal.message, passing: data)
                    }
                    if request.upgrades {
                        // A WebSocket from here on (or a refused upgrade, which closes).
                        state = .done
                        setDeadline(nil, context)
                        context.fireChannelRead(data)
                        context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
                        return
                    }
                    if request.contentLength > 0 {
                        state = .body(remaining: request.contentLength)
                        setDeadline(limits.bodyTimeout, context)
                    } else {
                        finishRequest(context)
                    }
                }
            }
        }
        context.fireChannelRead(data)
    }

    /// A request arrived whole: the next head is timed from its first byte (waiting in
    /// between is the server's idle timeout).
    private func finishRequest(_ context: ChannelHandlerContext) {
        requests += 1
        state = .head(started: false)
        setDeadline(nil, context)
    }

    /// Why a request's body is refused, if it is.
    private func bodyRefusal(_ request: RequestHead) -> (status: String, message: String)? {
        if request.isMalformedLength {
            return ("400 Bad Request", "The request's Content-Length is not a number; send one length, in bytes.")
        }
        if request.isChunked {
            return ("411 Length Required", "Send the request body with a Content-Length, not chunked.")
        }
        if request.contentLength > 0, request.method != "POST" {
            return ("400 Bad Request", "This address takes no request body; send the request without one.")
        }
        if request.contentLength > limits.maxBodyBytes {
            return ("413 Content Too Large", "The request body is larger than \(limits.maxBodyBytes) bytes.")
        }
        return nil
    }

    /// Answers with `status` and a short plain-text reason, then closes the connection.
    ///
    /// Only the connection's first request is answered here (no response can be on its way
    /// then). A later one is passed on (`passing`) for the server to answer after the
    /// responses before it, and the connection is closed a ``Limits/headerTimeout`` later;
    /// a later request that timed out closes the connection at once.
    private func refuse(_ context: ChannelHandlerContext, status: String, message: String, passing data: NIOAny? = nil) {
        if case .done = state { return }
        state = .done
        setDeadline(nil, context)
        head = []
        guard requests == 0 else {
            if let data {
                context.fireChannelRead(data)
                let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
                deadline = context.eventLoop.scheduleTask(in: limits.headerTimeout) { bound.value.close(promise: nil) }
            } else {
                context.close(promise: nil)
            }
            return
        }
        let body = message + "\n"
        let text =
            "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: text))).whenComplete { _ in
            bound.value.close(promise: nil)
        }
    }
}
