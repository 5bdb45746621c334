import HummingbirdCore
import Logging
import NIOCore

/// A server child channel that puts a ``RequestGuard`` in front of another one
/// (Hummingbird's HTTP/1.1 channel with WebSocket upgrade), so every request is checked
/// and timed before the server parses it.
struct GuardedChannel<Inner: ServerChildChannel>: ServerChildChannel {
    typealias Value = Inner.Value

    let inner: Inner
    let limits: RequestGuard.Limits

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        do {
            try channel.pipeline.syncOperations.addHandler(RequestGuard(limits: limits), position: .first)
        } catch {
            return channel.eventLoop.makeFailedFuture(error)
        }
        return inner.setup(channel: channel, logger: logger)
    }

    func handle(value: Value, logger: Logger) async {
        await inner.handle(value: value, logger: logger)
    }
}
