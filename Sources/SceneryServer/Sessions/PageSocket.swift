import HummingbirdWebSocket
import NIOCore

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

/// A page's WebSocket on `scenery serve`.
struct WebSocketPageSocket: PageSocket {
    let outbound: WebSocketOutboundWriter
    /// The socket's connection, closed if the page does not answer the close in time.
    let channel: any Channel

    /// How long a page has to answer a close before its connection is dropped.
    static let closeTimeout = TimeAmount.seconds(5)

    func write(_ text: String) async throws {
        try await outbound.write(.text(text))
    }

    func close() async {
        // A page that never answers (or no longer reads) must not keep the connection, nor
        // the task reading it.
        let channel = channel
        channel.eventLoop.scheduleTask(in: Self.closeTimeout) { channel.close(promise: nil) }
        try? await outbound.close(.normalClosure, reason: nil)
    }
}
