import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import NIOEmbedded
import Scenery
import ServiceLifecycle

/// `.router`: each request goes to the application's responder in this process, with a
/// context on a channel that is no socket (so a request has no peer address).
struct RouterTestClient<Responder: HTTPResponder>: HTTPTestClient
where Responder.Context: InitializableFromSource<ApplicationRequestContextSource> {
    let responder: Responder
    let logger: Logger

    var port: Int? { nil }

    func executeRequest(uri: String, method: HTTPRequest.Method, headers: HTTPFields, body: ByteBuffer?) async throws -> HTTPTestResponse {
        let request = Request(
            head: HTTPRequest(method: method, scheme: "http", authority: "localhost", path: uri, headerFields: headers),
            body: RequestBody(buffer: body ?? ByteBuffer()))
        let context = Responder.Context(source: ApplicationRequestContextSource(channel: NIOAsyncTestingChannel(), logger: logger))
        let response: Response
        do {
            response = try await responder.respond(to: request, context: context)
        } catch {
            // What reached no error middleware: a server would answer it so too.
            response = Response(status: .internalServerError)
        }
        let collected = Locked<(bytes: ByteBuffer, trailers: HTTPFields?)>((ByteBuffer(), nil))
        try await response.body.write(CollectingBodyWriter(collected: collected))
        let (bytes, trailers) = collected.withLock { ($0.bytes, $0.trailers) }
        return HTTPTestResponse(head: response.head, body: bytes, trailerHeaders: trailers)
    }

    /// Runs `body` with a router client of `app`, its services running meanwhile.
    static func run<App: ApplicationProtocol, Value>(_ app: App, _ body: (any HTTPTestClient) async throws -> Value) async throws -> Value
    where App.Responder == Responder {
        let client = RouterTestClient(responder: try await app.responder, logger: app.logger)
        guard !app.services.isEmpty else {
            for process in app.processesRunBeforeServerStart { try await process() }
            return try await body(client)
        }
        return try await withThrowingTaskGroup(of: Void.self) { group in
            let (started, didStart) = AsyncStream.makeStream(of: Void.self)
            let services = ServiceGroup(
                configuration: .init(services: app.services + [StartSignal(didStart: didStart)], logger: app.logger))
            group.addTask { try await services.run() }
            do {
                for process in app.processesRunBeforeServerStart { try await process() }
                // The group has started every service once the last one runs (a shutdown
                // triggered before that would leave services that never ran).
                for await _ in started {}
                let value = try await body(client)
                await services.triggerGracefulShutdown()
                return value
            } catch {
                await services.triggerGracefulShutdown()
                throw error
            }
        }
    }
}

/// The last service of a router test's group: says the group is running, then waits for
/// its shutdown.
private struct StartSignal: Service {
    let didStart: AsyncStream<Void>.Continuation

    func run() async throws {
        didStart.finish()
        try? await gracefulShutdown()
    }
}

/// Collects a response's body, as a connection would send it.
private struct CollectingBodyWriter: ResponseBodyWriter {
    let collected: Locked<(bytes: ByteBuffer, trailers: HTTPFields?)>

    mutating func write(_ buffer: ByteBuffer) async throws {
        collected.withLock { _ = $0.bytes.writeImmutableBuffer(buffer) }
    }

    consuming func finish(_ trailingHeaders: HTTPFields?) async throws {
        collected.withLock { $0.trailers = trailingHeaders }
    }
}
