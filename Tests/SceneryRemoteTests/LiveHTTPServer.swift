import Foundation
import Hummingbird
import NIOCore

/// A Hummingbird server on a free loopback port for the length of a test.
struct LiveHTTPServer {
    let base: URL
    let task: Task<Void, any Error>

    /// Starts `app` and waits until it accepts connections.
    static func start(_ makeApp: (@escaping @Sendable (Int) -> Void) -> some ApplicationProtocol) async throws -> LiveHTTPServer {
        let (ports, continuation) = AsyncStream<Int>.makeStream()
        let app = makeApp { port in continuation.yield(port) }
        let task = Task { try await app.runService() }
        var iterator = ports.makeAsyncIterator()
        guard let port = await iterator.next() else { throw CancellationError() }
        return LiveHTTPServer(base: URL(string: "http://127.0.0.1:\(port)/")!, task: task)
    }

    /// A plain router's server.
    static func start(_ router: Router<BasicRequestContext>) async throws -> LiveHTTPServer {
        try await start { listening in
            Application(
                router: router, configuration: .init(address: .hostname("127.0.0.1", port: 0)),
                onServerRunning: { channel in listening(channel.localAddress?.port ?? 0) })
        }
    }

    func stop() async {
        task.cancel()
        _ = await task.result
    }
}
