import NIOCore
import NIOWebSocket
import Scenery

/// The page sockets' writes to the channels of one event loop, gathered: the first write
/// of a burst schedules one task on the loop, which writes everything queued meanwhile, in
/// order, and flushes each channel once.
///
/// A change shown on a thousand open pages is a thousand writes from the pages'
/// isolations; sent one by one, each would wake the loop (a system call) and flush its
/// channel alone, and a page sent two messages (a patch and what it means) would have them
/// written by two system calls. Gathered, the loop is woken once per burst and a channel's
/// messages of the burst leave in one write. Order is kept: a socket's writes and its close
/// all go through its loop's queue, which runs first in, first out.
final class LoopWrites: Sendable {
    /// What a page socket asked of its channel.
    enum Job: Sendable {
        /// Write a framed message of `bytes` bytes of text; the socket is told when it left.
        case write(ChannelPageSocket, ByteBuffer, bytes: Int)
        /// Close the channel normally, after what was queued before.
        case close(any Channel)
    }

    private let loop: any EventLoop
    private let queued = Locked<[Job]>([])

    private init(loop: any EventLoop) {
        self.loop = loop
    }

    /// The writes of `loop`'s channels: one object per loop for the life of the process.
    static func of(_ loop: any EventLoop) -> LoopWrites {
        let key = ObjectIdentifier(loop)
        return all.withLock { all in
            if let writes = all[key] { return writes }
            let writes = LoopWrites(loop: loop)
            all[key] = writes
            return writes
        }
    }

    private static let all = Locked<[ObjectIdentifier: LoopWrites]>([:])

    /// Queues a job; the first of a burst schedules the task that runs them.
    func enqueue(_ job: Job) {
        let isFirst = queued.withLock { jobs in
            jobs.append(job)
            return jobs.count == 1
        }
        if isFirst { loop.execute { self.runQueued() } }
    }

    /// Runs the jobs queued so far, in order, on the loop; then flushes each channel written
    /// to. A channel completes its writes in order, so a socket's last write of the burst
    /// tells it that all of them left: one promise per socket, not one per message.
    private func runQueued() {
        var jobs: [Job] = []
        queued.withLock { swap(&jobs, &$0) }
        // Per socket: where its last write of the burst is, and what the burst writes to it.
        var bursts: [ObjectIdentifier: (last: Int, count: Int, bytes: Int)] = [:]
        for (index, job) in jobs.enumerated() {
            guard case .write(let socket, _, let bytes) = job else { continue }
            let burst = bursts[ObjectIdentifier(socket)]
            bursts[ObjectIdentifier(socket)] = (index, (burst?.count ?? 0) + 1, (burst?.bytes ?? 0) + bytes)
        }
        var written: [ObjectIdentifier: any Channel] = [:]
        for (index, job) in jobs.enumerated() {
            switch job {
            case .write(let socket, let frame, _):
                written[ObjectIdentifier(socket.channel)] = socket.channel
                guard let burst = bursts[ObjectIdentifier(socket)], burst.last == index else {
                    socket.write(framed: frame, promise: nil)
                    continue
                }
                let promise = loop.makePromise(of: Void.self)
                promise.futureResult.whenComplete { _ in socket.didWrite(count: burst.count, bytes: burst.bytes) }
                socket.write(framed: frame, promise: promise)
            case .close(let channel):
                if written.removeValue(forKey: ObjectIdentifier(channel)) != nil { channel.flush() }
                PageSocketHandler.close(channel, code: .normalClosure)
            }
        }
        for channel in written.values { channel.flush() }
    }
}
