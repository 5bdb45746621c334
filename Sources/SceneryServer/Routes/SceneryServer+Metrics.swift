import Hummingbird

extension SceneryServer {
    /// `GET /metrics`: the telemetry's page (``Telemetry/metricsPage``) for a scraper on this
    /// machine; any other address is refused with 403 and logged, as the preview is.
    func metricsResponse(_ page: @Sendable () -> String, request: Request, context: SceneryRequestContext) -> Response {
        guard isFromThisMachine(request, context: context) else {
            logger.notice("refused a metrics request from \(clientAddress(peer: context.peer, headers: request.headers))")
            return Response(
                status: .forbidden, headers: [.contentType: "text/plain; charset=utf-8"],
                body: .init(byteBuffer: ByteBuffer(string: "The metrics answer requests from this machine only (a loopback address).\n")))
        }
        return Response(
            status: .ok, headers: [.contentType: "text/plain; version=0.0.4; charset=utf-8", .cacheControl: "no-store"],
            body: .init(byteBuffer: ByteBuffer(string: page())))
    }
}
