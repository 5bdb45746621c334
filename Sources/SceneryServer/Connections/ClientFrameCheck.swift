import NIOCore
import NIOWebSocket

/// Refuses the frames RFC 6455 forbids a client to send, before they are put together: an
/// unmasked frame (section 5.1), and one with a reserved bit set while no extension was
/// agreed (section 5.2). The ``PageSocketHandler`` closes the socket with 1002 (protocol
/// error) and a close frame, as the RFC requires; nothing after the refused frame is read
/// but the page's answer to that close.
final class ClientFrameCheck: ChannelInboundHandler, RemovableChannelHandler {
    typealias InboundIn = WebSocketFrame
    typealias InboundOut = WebSocketFrame

    /// A frame no client may send, and why.
    struct Violation: Error, Equatable {
        let reason: String

        static let unmasked = Violation(reason: "A client's frames must be masked.")
        static let reservedBits = Violation(reason: "No extension was agreed: reserved bits must be 0.")
    }

    private var hasRefused = false

    func channelRead(context: ChannelHandlerContext, data: NIOAny) {
        let frame = unwrapInboundIn(data)
        if hasRefused {
            // Only the page's answer to the close goes on.
            if frame.opcode == .connectionClose { context.fireChannelRead(data) }
            return
        }
        let violation: Violation? =
            if frame.maskKey == nil { .unmasked } else if frame.rsv1 || frame.rsv2 || frame.rsv3 { .reservedBits } else { nil }
        guard let violation else {
            context.fireChannelRead(data)
            return
        }
        hasRefused = true
        context.fireErrorCaught(violation)
    }
}
