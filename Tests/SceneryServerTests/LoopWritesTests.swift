import NIOCore
import NIOEmbedded
import NIOWebSocket
import Testing

@testable import SceneryServer

/// Page sockets' writes to the channels of one event loop leave together: queued until the
/// loop runs once, in the order sent, each channel flushed once, a close after the writes
/// sent before it; each message framed once, in one buffer.
@Suite struct LoopWritesTests {
    /// What reaches the front of a channel: each frame's text (a close frame as "close"),
    /// each flush, and how many buffers were written.
    final class Recorder: ChannelOutboundHandler, @unchecked Sendable {
        typealias OutboundIn = ByteBuffer
        var seen: [String] = []
        var buffers = 0
        /// Bytes of a frame not yet whole (the encoder writes a header apart from its payload).
        var partial = ByteBuffer()

        func write(context: ChannelHandlerContext, data: NIOAny, promise: EventLoopPromise<Void>?) {
            var buffer = unwrapOutboundIn(data)
            buffers += 1
            partial.writeBuffer(&buffer)
            while let frame = Self.frame(from: &partial) { seen.append(frame) }
            context.write(data, promise: promise)
        }

        func flush(context: ChannelHandlerContext) {
            seen.append("flush")
            context.flush()
        }

        /// A server's whole frame (unmasked) read off the front of `buffer`, or `nil` (and
        /// `buffer` unread) until it is whole.
        static func frame(from buffer: inout ByteBuffer) -> String? {
            var reading = buffer
            guard let first = reading.readInteger(as: UInt8.self), let second = reading.readInteger(as: UInt8.self) else { return nil }
            var length: Int? = Int(second & 0x7F)
            if length == 126 { length = reading.readInteger(as: UInt16.self).map(Int.init) }
            if length == 127 { length = reading.readInteger(as: UInt64.self).map(Int.init) }
            guard let length, let payload = reading.readString(length: length) else { return nil }
            buffer = reading
            return first & 0x0F == 0x8 ? "close" : payload
        }
    }

    /// A channel served as `scenery serve` serves a page socket: the frame encoder, then the
    /// page socket's handler, with `recorder` at the front.
    static func pageChannel(_ recorder: Recorder, on loop: EmbeddedEventLoop) throws -> EmbeddedChannel {
        let inbox = PageSocketInbox { _ in nil }
        return EmbeddedChannel(
            handlers: [recorder, WebSocketFrameEncoder(), PageSocketHandler(inbox: inbox, pingInterval: .minutes(5), closeTimeout: .minutes(5))],
            loop: loop)
    }

    @Test func aBurstLeavesInOrderOnceTheLoopRunsWithOneFlushPerChannelAndTheCloseLast() throws {
        let loop = EmbeddedEventLoop()
        let (alice, bob) = (Recorder(), Recorder())
        let first = try Self.pageChannel(alice, on: loop)
        let second = try Self.pageChannel(bob, on: loop)
        let (page, other) = (ChannelPageSocket(channel: first), ChannelPageSocket(channel: second))
        page.send("patch 1")
        other.send("patch 1 for another page")
        page.send("what it means")
        page.close()
        #expect(alice.seen.isEmpty && bob.seen.isEmpty, "nothing is written before the loop runs")
        #expect(page.unwritten == 2 && page.unwrittenBytes == "patch 1".utf8.count + "what it means".utf8.count)
        loop.run()
        #expect(alice.seen == ["patch 1", "what it means", "flush", "close", "flush"])
        #expect(bob.seen == ["patch 1 for another page", "flush"])
        #expect(alice.buffers == 4, "a message is one buffer, header and text (the close frame, the encoder's, is two): \(alice.buffers)")
        #expect(page.unwritten == 0 && page.unwrittenBytes == 0 && other.unwritten == 0, "each socket is told its writes left")
        // A later burst schedules the loop again.
        other.send("patch 2")
        loop.run()
        #expect(bob.seen.suffix(2) == ["patch 2", "flush"])
        // After its close frame a socket writes nothing more (RFC 6455), and says so.
        page.send("too late")
        loop.run()
        #expect(alice.seen.last == "flush" && !alice.seen.contains("too late"))
        #expect(page.unwritten == 0 && page.unwrittenBytes == 0)
        _ = try first.finish(acceptAlreadyClosed: true)
        _ = try second.finish(acceptAlreadyClosed: true)
    }

    @Test(arguments: [0, 1, 125, 126, 127, 65_535, 65_536, 70_000])
    func aFramedMessageIsTheFrameTheEncoderWouldWrite(length: Int) throws {
        let text = String(repeating: "é", count: length / 2) + String(repeating: "a", count: length % 2)
        let encoder = EmbeddedChannel(handler: WebSocketFrameEncoder())
        try encoder.writeOutbound(WebSocketFrame(fin: true, opcode: .text, data: encoder.allocator.buffer(string: text)))
        var expected = encoder.allocator.buffer(capacity: 0)
        while var part = try encoder.readOutbound(as: ByteBuffer.self) { expected.writeBuffer(&part) }
        #expect(PageSocketHandler.textFrame(text, allocator: ByteBufferAllocator()) == expected)
        _ = try encoder.finish()
    }
}
