import NIOCore
import NIOWebSocket

/// Serves an upgraded page socket on its connection's event loop: frames in, the page
/// session's messages out, pings, and the close handshake.
///
/// No task waits on the socket. What the page sends goes to an ``PageSocketInbox``, which
/// runs a task only while messages wait; what the session sends is written straight to the
/// channel (``ChannelPageSocket``). So an idle page costs its channel and its handlers, not
/// the tasks and buffers of an asynchronous channel.
final class PageSocketHandler: ChannelDuplexHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias OutboundIn = WebSocketFrame
    typealias OutboundOut = WebSocketFrame

    /// Asks the handler to close the socket with a code and a reason (an outbound user event).
    struct Close: Sendable {
        var code: WebSocketErrorCode
        var reason: String?
    }

    /// Asks the page socket on `channel` to close, from any thread: the handler sends the
    /// close frame (once) and ends the connection if the page does not answer it in time.
    static func close(_ channel: any Channel, code: WebSocketErrorCode, reason: String? = nil) {
        channel.triggerUserOutboundEvent(Close(code: code, reason: reason), promise: nil)
    }

    private let inbox: PageSocketInbox
    private let pingInterval: TimeAmount
    private let closeTimeout: TimeAmount
    private var pinger: RepeatedTask?
    private var awaitingPong = false
    private var hasSentClose = false
    /// The frame encoder's context: a message framed already (``textFrame(_:allocator:)``)
    /// is written from it, so it goes on toward the socket without being framed again.
    private var encoder: ChannelHandlerContext?

    init(inbox: PageSocketInbox, pingInterval: TimeAmount, closeTimeout: TimeAmount) {
        self.inbox = inbox
        self.pingInterval = pingInterval
        self.closeTimeout = closeTimeout
    }

    func handlerAdded(context: ChannelHandlerContext) {
        // A page that stops answering pings (a laptop closed, a network gone) is let go.
        let loopBound = NIOLoopBound((self, context), eventLoop: context.eventLoop)
        pinger = context.eventLoop.scheduleRepeatedTask(initialDelay: pingInterval, delay: pingInterval) { _ in
            let (handler, context) = loopBound.value
            handler.ping(context)
        }
        encoder = try? context.pipeline.syncOperations.context(handlerType: WebSocketFrameEncoder.self)
        inbox.open(channel: context.channel)
    }

    func handlerRemoved(context: ChannelHandlerContext) {
        stopPinging()
        encoder = nil
    }

    /// Writes a text message framed by ``textFrame(_:allocator:)``, past the frame encoder.
    /// Nothing is written after the close frame (RFC 6455 §5.5.1): `promise` succeeds then,
    /// as it does when the encoder is gone with the connection.
    func write(framed frame: ByteBuffer, promise: EventLoopPromise<Void>?) {
        guard !hasSentClose, let encoder else {
            promise?.succeed()
            return
        }
        encoder.write(NIOAny(frame), promise: promise)
    }

    /// A server's text frame for `text` in one buffer: the header (final, text, unmasked,
    /// the length in 1, 3 or 9 bytes) and the text. The frame encoder would write its header
    /// as a buffer of its own, one more write and allocation per message.
    static func textFrame(_ text: String, allocator: ByteBufferAllocator) -> ByteBuffer {
        let count = text.utf8.count
        var frame = allocator.buffer(capacity: count + 10)
        frame.writeInteger(UInt8(0x81))  // FIN, opcode 1 (text)
        if count < 126 {
            frame.writeInteger(UInt8(count))
        } else if count <= Int(UInt16.max) {
            frame.writeInteger(UInt8(126))
            frame.writeInteger(UInt16(count))
        } else {
            frame.writeInteger(UInt8(127))
            frame.writeInteger(UInt64(count))
        }
        frame.writeString(text)
        return frame
    }

    func channelInactive(context: ChannelHandlerContext) {
        stopPinging()
        inbox.closed()
        context.fireChannelInactive()
    }

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        // After the server's close, only the page's answer to it is read.
        guard !hasSentClose || frame.opcode == .connectionClose else { return }
        switch frame.opcode {
        case .text:
            guard let text = Self.text(of: frame.unmaskedData) else {
                close(context, code: .dataInconsistentWithMessage, reason: nil)
                return
            }
            inbox.received(text)
        case .binary:
            inbox.received("")  // not the page protocol: refused, and the session carries on
        case .ping:
            guard !hasSentClose else { return }
            context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .pong, data: frame.unmaskedData)), promise: nil)
        case .pong:
            awaitingPong = false
        case .connectionClose:
            if hasSentClose {
                context.close(promise: nil)
            } else {
                // The page closes: answer with the same code, then end the connection.
                var data = frame.unmaskedData
                let code = data.readWebSocketErrorCode() ?? .normalClosure
                close(context, code: code, reason: nil)
                context.close(promise: nil)
            }
        default:
            close(context, code: .protocolError, reason: nil)
        }
    }

    func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
        guard let request = event as? Close else {
            context.triggerUserOutboundEvent(event, promise: promise)
            return
        }
        close(context, code: request.code, reason: request.reason)
        promise?.succeed()
    }

    /// A frame the RFC forbids (``ClientFrameCheck``), a message in more fragments or bytes
    /// than the server takes, or a continuation with no message to continue, is answered
    /// with a close frame saying so (1002, or 1009 for a message too large); any other
    /// error ends the connection.
    func errorCaught(context: ChannelHandlerContext, error: any Error) {
        switch error {
        case let violation as ClientFrameCheck.Violation:
            close(context, code: .protocolError, reason: violation.reason)
        case NIOWebSocketFrameAggregator.Error.accumulatedFrameSizeIsTooLarge:
            close(context, code: .messageTooLarge, reason: "The message is larger than the server takes.")
        case NIOWebSocketFrameAggregator.Error.tooManyFragments:
            close(context, code: .protocolError, reason: "The message is in more fragments than the server takes.")
        case is NIOWebSocketFrameAggregator.Error:
            close(context, code: .protocolError, reason: "A continuation frame must continue a text or binary message.")
        default:
            context.close(promise: nil)
        }
    }

    /// Sends a close frame (once), and ends the connection if the page does not answer it
    /// within the close timeout.
    private func close(_ context: ChannelHandlerContext, code: WebSocketErrorCode, reason: String?) {
        guard !hasSentClose else { return }
        hasSentClose = true
        var data = context.channel.allocator.buffer(capacity: 2 + (reason?.utf8.count ?? 0))
        data.write(webSocketErrorCode: code)
        if let reason { data.writeString(reason) }
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .connectionClose, data: data)), promise: nil)
        let channel = context.channel
        context.eventLoop.scheduleTask(in: closeTimeout) { channel.close(promise: nil) }
    }

    private func stopPinging() {
        pinger?.cancel()
        pinger = nil
    }

    private func ping(_ context: ChannelHandlerContext) {
        guard !hasSentClose else { return }
        if awaitingPong {
            context.close(promise: nil)
            return
        }
        awaitingPong = true
        context.writeAndFlush(wrapOutboundOut(WebSocketFrame(fin: true, opcode: .ping, data: context.channel.allocator.buffer(capacity: 0))), promise: nil)
    }

    /// The frame's text, or `nil` when it is not valid UTF-8.
    private static func text(of buffer: ByteBuffer) -> String? {
        buffer.withUnsafeReadableBytes { String(validating: $0, as: UTF8.self) }
    }
}
