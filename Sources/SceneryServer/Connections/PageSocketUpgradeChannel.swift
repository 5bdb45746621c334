import HTTPTypes
import HummingbirdCore
import Logging
import NIOConcurrencyHelpers
import NIOCore
import NIOHTTP1
import NIOHTTPTypes
import NIOHTTPTypesHTTP1
import NIOWebSocket

/// The server's connections: HTTP/1.1 answered by the router, and a page's socket (`/live`)
/// upgraded to a WebSocket served by NIO handlers on the event loop.
///
/// A WebSocket through an asynchronous channel keeps a connection task, a ping task and
/// their suspended frames for the life of the socket: about 25 KiB per open page. Here an
/// upgraded socket keeps its channel and a ``PageSocketHandler``; the connection's task
/// ends once the upgrade is done.
struct PageSocketUpgradeChannel: ServerChildChannel, HTTPChannelHandler {
    enum Outcome: Sendable {
        case upgraded
        case http(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
        case refused(NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>)
    }

    struct Value: ServerChildChannelValue {
        let outcome: EventLoopFuture<Outcome>
        let channel: any Channel
    }

    let responder: HTTPChannelHandler.Responder
    let http1: HTTP1Channel.Configuration
    let maxFrameSize: Int
    /// Decides whether a request opens a page socket: the inbox that serves it, or `nil`.
    let accept: @Sendable (HTTPRequest) async -> PageSocketInbox?
    let pingInterval: TimeAmount
    let closeTimeout: TimeAmount

    func setup(channel: any Channel, logger: Logger) -> EventLoopFuture<Value> {
        channel.eventLoop.makeCompletedFuture {
            let attempted = NIOLoopBoundBox(false, eventLoop: channel.eventLoop)
            let accepted = NIOLockedValueBox<PageSocketInbox?>(nil)
            let upgrader = NIOTypedWebSocketServerUpgrader<Outcome>(
                maxFrameSize: maxFrameSize,
                enableAutomaticErrorHandling: true,
                shouldUpgrade: { channel, head in
                    attempted.value = true
                    let promise = channel.eventLoop.makePromise(of: HTTPHeaders?.self)
                    promise.completeWithTask {
                        guard let request = try? HTTPRequest(head, secure: false, splitCookie: false), let inbox = await accept(request)
                        else { return nil }
                        accepted.withLockedValue { $0 = inbox }
                        return HTTPHeaders()
                    }
                    return promise.futureResult
                },
                upgradePipelineHandler: { channel, _ in
                    channel.eventLoop.makeCompletedFuture {
                        guard let inbox = accepted.withLockedValue({ $0 }) else { throw ChannelError.inappropriateOperationForState }
                        try channel.pipeline.syncOperations.addHandler(ClientFrameCheck())
                        try channel.pipeline.syncOperations.addHandler(
                            NIOWebSocketFrameAggregator(minNonFinalFragmentSize: 0, maxAccumulatedFrameCount: 64, maxAccumulatedFrameSize: maxFrameSize))
                        try channel.pipeline.syncOperations.addHandler(
                            PageSocketHandler(inbox: inbox, pingInterval: pingInterval, closeTimeout: closeTimeout))
                        return Outcome.upgraded
                    }
                })
            let upgrade = NIOTypedHTTPServerUpgradeConfiguration(
                upgraders: [upgrader],
                notUpgradingCompletionHandler: { channel in
                    channel.eventLoop.makeCompletedFuture {
                        try channel.pipeline.syncOperations.addHandler(HTTP1ToHTTPServerCodec(secure: false))
                        try channel.pipeline.syncOperations.addHandlers(http1.additionalChannelHandlers())
                        try channel.pipeline.syncOperations.addHandler(
                            HTTPConnectionStateHandler(idleTimeout: http1.idleTimeout.map { Duration($0) }, logger: logger))
                        let http = try NIOAsyncChannel<HTTPRequestPart, HTTPResponsePart>(
                            wrappingChannelSynchronously: channel, configuration: .init(isOutboundHalfClosureEnabled: true))
                        return attempted.value ? Outcome.refused(http) : Outcome.http(http)
                    }
                })
            var configuration = NIOUpgradableHTTPServerPipelineConfiguration<Outcome>(upgradeConfiguration: upgrade)
            configuration.enablePipelining = false  // the asynchronous channel takes one request at a time
            configuration.enableErrorHandling = false  // Hummingbird answers parse errors
            configuration.enableResponseHeaderValidation = false  // HTTP types validate them already
            configuration.decoderConfiguration.maxHeaderFieldSize = http1.httpDecoder.maxHeaderFieldSize
            configuration.decoderConfiguration.maxHeaderListSize = http1.httpDecoder.maxHeaderListSize
            configuration.decoderConfiguration.maxHeaderFieldCount = http1.httpDecoder.maxHeaderFieldCount
            let outcome = try channel.pipeline.syncOperations.configureUpgradableHTTPServerPipeline(configuration: configuration)
            return Value(outcome: outcome, channel: channel)
        }
    }

    func handle(value: Value, logger: Logger) async {
        do {
            switch try await value.outcome.get() {
            case .upgraded:
                return  // the socket's handler serves it from here; no task waits on it
            case .http(let http):
                await handleHTTP(asyncChannel: http, logger: logger)
            case .refused(let http):
                try await http.executeThenClose { _, outbound in
                    try await outbound.write(
                        contentsOf: [.head(HTTPResponse(status: .badRequest, headerFields: [.connection: "close", .contentLength: "0"])), .end(nil)])
                }
            }
        } catch {
            logger.debug("connection ended: \(error)")
        }
    }
}
