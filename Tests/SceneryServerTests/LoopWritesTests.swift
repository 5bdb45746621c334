import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import SceneryServer

/// Page sockets' writes to the channels of one event loop leave together: queued until the
/// loop runs once, in the order sent, each channel flushed once, a close after the writes
/// sent before it.
@Suite struct LoopWritesTests {
    /// What reaches the front of a channel: each frame's text, each flush, each close.
    final class Recorder: ChannelOutboundHandler, @unchecked Sendable {
        typealias OutboundIn = WebSocketFrame
        var seen: [String] = []

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            seen.append(String(buffer: unwrapOutboundIn(data).data))
            context.write(data, promise: promise)
        }

        func flush(context: ChannelHandlerContext) {
            seen.append("flush")
            context.flush()
        }

        func triggerUserOutboundEvent(context: ChannelHandlerContext, event: Any, promise: EventLoopPromise<Void>?) {
            seen.append("close")
            promise?.succeed()
        }
    }

    @Test func aBurstLeavesInOrderOnceTheLoopRunsWithOneFlushPerChannelAndTheCloseLast() throws {
        let loop = EmbeddedEventLoop()
        let (alice, bob) = (Recorder(), Recorder())
        let first = EmbeddedChannel(handler: alice, loop: loop)
        let second = EmbeddedChannel(handler: bob, loop: loop)
        let (page, other) = (ChannelPageSocket(channel: first), ChannelPageSocket(channel: second))
        page.send("patch 1")
        other.send("patch 1 for another page")
        page.send("what it means")
        page.close()
        #expect(alice.seen.isEmpty && bob.seen.isEmpty, "nothing is written before the loop runs")
        #expect(page.unwritten == 2 && page.unwrittenBytes == "patch 1".utf8.count + "what it means".utf8.count)
        loop.run()
        #expect(alice.seen == ["patch 1", "what it means", "flush", "close"])
        #expect(bob.seen == ["patch 1 for another page", "flush"])
        #expect(page.unwritten == 0 && page.unwrittenBytes == 0 && other.unwritten == 0, "each socket is told its writes left")
        // A later burst schedules the loop again.
        other.send("patch 2")
        loop.run()
        #expect(bob.seen.suffix(2) == ["patch 2", "flush"])
        _ = try first.finish(acceptAlreadyClosed: true)
        _ = try second.finish(acceptAlreadyClosed: true)
    }
}
