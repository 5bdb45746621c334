import NIOCore

/// The first handler of every connection: it answers a request whose head is malformed
/// or too slow before any HTTP parsing, and then steps aside.
///
/// HTTP/1.1 parsing of a connection's first request happens while the server decides
/// whether to upgrade it to a WebSocket, and a parse error there got no answer at all:
/// the connection stayed open. This handler reads the raw bytes of that first head:
/// - a request line or header with a control character (a NUL, say), or a target that
///   is not a path (`/…`), is answered `400 Bad Request` and the connection closed;
/// - a head that is not complete within ``Limits/headerTimeout`` is answered
///   `408 Request Timeout` and closed (a slow or half-open client holds nothing);
/// - a head larger than ``Limits/maxHeadBytes`` is answered `431` and closed.
///
/// Once the head is complete and valid, the handler removes itself; later requests on a
/// kept-alive connection are bounded by the server's idle timeout and answered by
/// Hummingbird's own parser, which replies 400 to a malformed one.
final class FirstRequestGuard: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = ByteBuffer
    typealias InboundOut = ByteBuffer
    typealias OutboundOut = ByteBuffer

    struct Limits: Sendable {
        var headerTimeout: TimeAmount
        var maxHeadBytes: Int
    }

    private let limits: Limits
    /// The bytes of the head seen so far (kept only to find its end and check it).
    private var head: [UInt8] = []
    private var deadline: Scheduled<Void>?
    private var isDone = false

    init(limits: Limits) {
        self.limits = limits
    }

    func handlerAdded(context: ChannelHandlerContext) {
        if context.channel.isActive { startClock(context) }
    }

    func channelActive(context: ChannelHandlerContext) {
        startClock(context)
        context.fireChannelActive()
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        deadline?.cancel()
        deadline = nil
    }

    private func startClock(_ context: ChannelHandlerContext) {
        guard deadline == nil, !isDone else { return }
        let bound = NIOLoopBound((handler: self, context: context), eventLoop: context.eventLoop)
        deadline = context.eventLoop.scheduleTask(in: limits.headerTimeout) {
            let (handler, context) = bound.value
            guard !handler.isDone else { return }
            handler.refuse(
                context, status: "408 Request Timeout",
                message: "The request's headers did not arrive within the time allowed; send the whole request at once.")
        }
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        guard !isDone else {
            context.fireChannelRead(data)
            return
        }
        let bytes = unwrapInboundIn(data)
        head.append(contentsOf: bytes.readableBytesView)
        switch Self.check(head, maxBytes: limits.maxHeadBytes) {
        case .incomplete:
            context.fireChannelRead(data)
        case .complete:
            isDone = true
            head = []
            deadline?.cancel()
            deadline = nil
            context.fireChannelRead(data)
            context.pipeline.syncOperations.removeHandler(context: context, promise: nil)
        case .tooLarge:
            refuse(context, status: "431 Request Header Fields Too Large", message: "The request's headers are too large.")
        case .malformed(let reason):
            refuse(context, status: "400 Bad Request", message: reason)
        }
    }

    /// Answers with `status` and a short plain-text reason, then closes the connection.
    private func refuse(_ context: ChannelHandlerContext, status: String, message: String) {
        guard !isDone else { return }
        isDone = true
        deadline?.cancel()
        deadline = nil
        head = []
        let body = message + "\n"
        let text = "HTTP/1.1 \(status)\r\nContent-Type: text/plain; charset=utf-8\r\nContent-Length: \(body.utf8.count)\r\nConnection: close\r\n\r\n\(body)"
        let bound = NIOLoopBound(context, eventLoop: context.eventLoop)
        context.writeAndFlush(wrapOutboundOut(context.channel.allocator.buffer(string: text))).whenComplete { _ in
            bound.value.close(promise: nil)
        }
    }

    enum Verdict: Equatable {
        case incomplete
        case complete
        case tooLarge
        case malformed(String)
    }

    /// What the bytes of a request's start say: whether its head is complete, and whether
    /// what has arrived of it is acceptable.
    static func check(_ bytes: [UInt8], maxBytes: Int) -> Verdict {
        let end = endOfHead(in: bytes)
        // Only the head is checked: a body that came in the same read may hold anything.
        let head = bytes[..<(end ?? bytes.endIndex)]
        let lineEnd = head.firstIndex(of: UInt8(ascii: "\n")) ?? head.endIndex
        // The request line: METHOD SP /target SP HTTP/x.y, nothing but visible characters.
        let requestLine = head[..<lineEnd]
        if requestLine.contains(where: { !($0 == UInt8(ascii: " ") || $0 == UInt8(ascii: "\r") || (0x21...0x7E).contains($0)) }) {
            return .malformed("The request line holds a control character; send a well-formed HTTP/1.1 request.")
        }
        if let space = requestLine.firstIndex(of: UInt8(ascii: " ")), let first = requestLine[(space + 1)...].first,
            first != UInt8(ascii: "/")
        {
            return .malformed("The request target must be a path starting with '/'.")
        }
        // Headers: no control characters but tab, CR and LF.
        if head[lineEnd...].contains(where: { ($0 < 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D) || $0 == 0x7F }) {
            return .malformed("A request header holds a control character; send a well-formed HTTP/1.1 request.")
        }
        if end != nil { return .complete }
        return bytes.count > maxBytes ? .tooLarge : .incomplete
    }

    /// The index just past the blank line that ends a head (CRLF CRLF, or LF LF).
    static func endOfHead(in bytes: [UInt8]) -> Int? {
        var index = bytes.startIndex
        while let newline = bytes[index...].firstIndex(of: UInt8(ascii: "\n")) {
            let next = newline + 1
            if next < bytes.endIndex, bytes[next] == UInt8(ascii: "\n") { return next + 1 }
            if next + 1 < bytes.endIndex, bytes[next] == UInt8(ascii: "\r"), bytes[next + 1] == UInt8(ascii: "\n") { return next + 2 }
            index = next
        }
        return nil
    }
}
