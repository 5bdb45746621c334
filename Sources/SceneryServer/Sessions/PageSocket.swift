import NIOCore
import NIOWebSocket

/// Where a page session writes its messages: the page's socket while one is open.
///
/// A session writes through it only while it has something to send, from a task that ends
/// when the queue is empty, so an idle page holds no task for its socket.
protocol PageSocket: Sendable {
    /// Writes one message; throws when the socket is gone.
    func write(_ text: String) async throws
    /// Closes the socket normally: a newer socket took over, or the page read too slowly.
    /// The page reconnects and catches up.
    func close() async
}

/// A page's WebSocket on `scenery serve`: its channel, served by a ``PageSocketHandler``.
struct ChannelPageSocket: PageSocket {
    let channel: any Channel

    func write(_ text: String) async throws {
        let frame = WebSocketFrame(fin: true, opcode: .text, data: channel.allocator.buffer(string: text))
        try await channel.writeAndFlush(frame).get()
    }

    func close() async {
        channel.triggerUserOutboundEvent(PageSocketHandler.Close(code: .normalClosure, reason: nil), promise: nil)
    }
}
