import NIOCore
import NIOWebSocket
import Synchronization

/// Where a page session writes its messages: the page's socket while one is open.
///
/// Sending returns at once and keeps the order of the sends; no task waits on the socket,
/// so an idle page holds none, and a burst of updates to many pages costs no task each.
protocol PageSocket: Sendable {
    /// Queues one message to be written after those sent before it.
    func send(_ text: String)
    /// Messages sent and not yet written to the connection: a page that does not read
    /// makes it grow, and its session lets the socket go past a limit.
    var unwritten: Int { get }
    /// The bytes of the messages sent and not yet written (a page that asks for the whole
    /// scene and reads nothing grows it fastest).
    var unwrittenBytes: Int { get }
    /// Closes the socket normally: a newer socket took over, or the page read too slowly.
    /// The page reconnects and catches up.
    func close()
}

/// A page's WebSocket on `scenery serve`: its channel, served by a ``PageSocketHandler``.
///
/// Writes from the session's isolation reach the channel in the order they were sent,
/// gathered with the other writes to channels of the same event loop (``LoopWrites``).
/// Each message is framed here, off the loop, into one buffer (``PageSocketHandler/textFrame(_:allocator:)``).
final class ChannelPageSocket: PageSocket {
    let channel: any Channel
    private let writes: LoopWrites
    private let pending = Atomic<Int>(0)
    private let pendingBytes = Atomic<Int>(0)
    /// The channel's handler, found on the loop at the first write.
    private let handler: NIOLoopBoundBox<PageSocketHandler?>

    init(channel: any Channel) {
        self.channel = channel
        writes = LoopWrites.of(channel.eventLoop)
        handler = .makeEmptyBox(valueType: PageSocketHandler.self, eventLoop: channel.eventLoop)
    }

    var unwritten: Int { pending.load(ordering: .relaxed) }
    var unwrittenBytes: Int { pendingBytes.load(ordering: .relaxed) }

    func send(_ text: String) {
        let bytes = text.utf8.count
        pending.add(1, ordering: .relaxed)
        pendingBytes.add(bytes, ordering: .relaxed)
        writes.enqueue(.write(self, PageSocketHandler.textFrame(text, allocator: channel.allocator), bytes: bytes))
    }

    /// Writes a framed message to the channel, on its loop (``LoopWrites``); `promise` is
    /// completed at once if the socket's handler is gone (the connection closed).
    func write(framed frame: ByteBuffer, promise: EventLoopPromise<Void>?) {
        if handler.value == nil { handler.value = try? channel.pipeline.syncOperations.handler(type: PageSocketHandler.self) }
        guard let handler = handler.value else {
            promise?.succeed()
            return
        }
        handler.write(framed: frame, promise: promise)
    }

    /// Called by ``LoopWrites`` when `count` messages of `bytes` sent here have left (or
    /// failed to).
    func didWrite(count: Int, bytes: Int) {
        pending.subtract(count, ordering: .relaxed)
        pendingBytes.subtract(bytes, ordering: .relaxed)
    }

    func close() {
        writes.enqueue(.close(channel))
    }
}
