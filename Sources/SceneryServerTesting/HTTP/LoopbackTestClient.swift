import HTTPTypes
import Hummingbird
import HummingbirdCore
import Logging
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOPosix
import Scenery
import ServiceLifecycle

/// `.live`: the application serves on a free port of `localhost`, and each request goes
/// over an HTTP/1.1 connection of its own, closed once the response has ended.
struct LoopbackTestClient: HTTPTestClient {
    let listeningPort: Int
    /// How long a response may take to end before the request fails.
    let timeout: Duration

    var port: Int? { listeningPort }

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> HTTPTestResponse {
        let request = HTTPRequest(method: method, scheme: nil, authority: "localhost", path: uri, headerFields: headers)
        let connection = try await ClientBootstrap(group: MultiThreadedEventLoopGroup.singleton).connect(host: "localhost", port: listeningPort) {
            channel in
            channel.eventLoop.makeCompletedFuture {
                try channel.pipeline.syncOperations.addHTTPClientHandlers()
                try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPClientCodec())
                return try NIOAsyncChannel<HTTPResponsePart, HTTPRequestPart>(wrappingChannelSynchronously: channel)
            }
        }
        // A response that never ends closes the connection, which ends the read below.
        let timedOut = Locked(false)
        let deadline = connection.channel.eventLoop.scheduleTask(in: TimeAmount(timeout)) {
            timedOut.withLock { $0 = true }
            connection.channel.close(promise: nil)
        }
        defer { deadline.cancel() }
        do {
            return try await connection.executeThenClose { inbound, outbound in
                try await outbound.write(.head(request))
                if let body { try await outbound.write(.body(body)) }
                try await outbound.write(.end(nil))
                var head: HTTPResponse?
                var collected = ByteBuffer()
                for try await part in inbound {
                    switch part {
                    case .head(let response) where response.status.kind == .informational: continue
                    case .head(let response): head = response
                    case .body(let bytes): collected.writeImmutableBuffer(bytes)
                    case .end(let trailers):
                        guard let head else { throw LoopbackTestError.endedWithoutHead(uri) }
                        return HTTPTestResponse(head: head, body: collected, trailerHeaders: trailers)
                    }
                }
                throw LoopbackTestError.closedBeforeTheEnd(uri)
            }
        } catch  where timedOut.withLock({ $0 }) {
            throw LoopbackTestError.noAnswer(uri, within: timeout)
        }
    }

    /// Runs `body` with a loopback client of `app`, served meanwhile on a free port.
    static func run<App: ApplicationProtocol, Value>(_ app: App, _ body: (any HTTPTestClient) async throws -> Value) async throws -> Value {
        let listening = ListeningApplication(base: app)
        return try await withThrowingTaskGroup(of: Void.self) { group in
            let services = ServiceGroup(configuration: .init(services: [listening], logger: app.logger))
            group.addTask {
                // A server that stops (or never starts) ends any wait for its port.
                defer { listening.listened(on: nil) }
                try await services.run()
            }
            do {
                guard let port = await listening.port() else {
                    try await group.next()
                    throw LoopbackTestError.notListening
                }
                let value = try await body(LoopbackTestClient(listeningPort: port, timeout: testRequestTimeout))
                await services.triggerGracefulShutdown()
                return value
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
        }
    }

    /// How long a test's response may take: a busy machine running a whole suite, not a
    /// slow server.
    static let testRequestTimeout: Duration = .seconds(120)
}

/// Why a loopback request failed.
enum LoopbackTestError: Error, CustomStringConvertible {
    case notListening
    case noSocketWithoutServer
    case endedWithoutHead(String)
    case closedBeforeTheEnd(String)
    case noAnswer(String, within: Duration)

    var description: String {
        switch self {
        case .notListening: "The application under test stopped before it listened on a port; its log says why."
        case .noSocketWithoutServer: "A WebSocket needs a server that listens: test with `.live`, not `.router`."
        case .endedWithoutHead(let uri): "The response to \(uri) ended before its head arrived."
        case .closedBeforeTheEnd(let uri): "The server closed the connection before the response to \(uri) ended."
        case .noAnswer(let uri, let timeout): "No whole response to \(uri) within \(timeout); the connection was closed."
        }
    }
}

/// An application served on a free port of `localhost`, which says the port once it listens.
private struct ListeningApplication<Base: ApplicationProtocol>: ApplicationProtocol {
    typealias Responder = Base.Responder

    let base: Base
    private let state = Locked<(port: Int??, waiting: [CheckedContinuation<Int?, Never>])>((nil, []))

    init(base: Base) { self.base = base }

    var responder: Responder { get async throws { try await base.responder } }
    var server: HTTPServerBuilder { base.server }
    var eventLoopGroup: any EventLoopGroup { base.eventLoopGroup }
    var configuration: ApplicationConfiguration { base.configuration.with(address: .hostname("localhost", port: 0)) }
    var logger: Logger { base.logger }
    var services: [any Service] { base.services }
    var processesRunBeforeServerStart: [@Sendable () async throws -> Void] { base.processesRunBeforeServerStart }

    @Sendable func onServerRunning(_ channel: any Channel) async {
        await base.onServerRunning(channel)
        listened(on: channel.localAddress?.port)
    }

    /// The port, once the server listens; `nil` when it stopped first.
    func port() async -> Int? {
        await withCheckedContinuation { continuation in
            let known = state.withLock { state -> Int?? in
                if let port = state.port { return port }
                state.waiting.append(continuation)
                return nil
            }
            if let known { continuation.resume(returning: known) }
        }
    }

    /// Says the port (or `nil`: it stopped) to every wait, once; later calls change nothing.
    func listened(on port: Int?) {
        let waiting = state.withLock { state -> [CheckedContinuation<Int?, Never>] in
            guard state.port == nil else { return [] }
            state.port = .some(port)
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume(returning: port) }
    }
}
