import Foundation
import NIOCore
import NIOHTTP1
import NIOPosix
import Scenery
import SceneryRemote

/// `SceneTransport` over SwiftNIO, for plain `http://` scene servers: the tests' second
/// transport beside `URLSessionSceneTransport`, showing what a Swift server on NIO writes
/// to fetch scenes (the `RemoteScenes` checks are the transport's, not the library's).
///
/// Enforces the `RemoteScenes/Limits`: the body is read up to the limit and no further,
/// the whole exchange (connection included) has a deadline, and redirects are followed
/// (up to five) only to the same host and port.
struct NIOSceneTransport: SceneTransport {
    let group: any EventLoopGroup

    init(group: any EventLoopGroup = MultiThreadedEventLoopGroup.singleton) {
        self.group = group
    }

    func get(_ url: URL, headers: [String: String], limits: RemoteScenes.Limits) async throws(SceneTransportFailure) -> SceneTransportResponse {
        try await PlainHTTP.followingRedirects(from: url) { (url) async throws(SceneTransportFailure) in
            try await getOnce(url, headers: headers, limits: limits)
        }
    }

    private func getOnce(_ url: URL, headers: [String: String], limits: RemoteScenes.Limits) async throws(SceneTransportFailure) -> SceneTransportResponse {
        let host = try PlainHTTP.host(of: url)
        let port = url.port ?? 80
        var path = url.path.isEmpty ? "/" : url.path
        if let query = url.query { path += "?\(query)" }
        let group = self.group
        let timeout = limits.timeout
        let maximumBytes = limits.maximumBytes
        let requestPath = path
        do {
            return try await withThrowingTaskGroup(of: SceneTransportResponse.self) { tasks in
                tasks.addTask {
                    try await Self.exchange(group: group, host: host, port: port, path: requestPath, headers: headers, maximumBytes: maximumBytes, url: url)
                }
                tasks.addTask {
                    try await Task.sleep(for: timeout)
                    throw SceneTransportFailure("\(url.absoluteString) did not answer in time")
                }
                defer { tasks.cancelAll() }
                guard let first = try await tasks.next() else { throw SceneTransportFailure("\(url.absoluteString) gave no HTTP response") }
                return first
            }
        } catch let failure as SceneTransportFailure {
            throw failure
        } catch let error as NIOConnectionError {
            let reasons = error.connectionErrors.map { failure in
                (failure.error as? IOError).map { String(cString: strerror($0.errnoCode)).lowercased() } ?? "\(failure.error)"
            }
            throw SceneTransportFailure("\(url.absoluteString) could not be reached (\(reasons.first ?? "no address for \(host)"))")
        } catch {
            throw SceneTransportFailure("\(url.absoluteString) could not be reached (\(error))")
        }
    }

    private static func exchange(
        group: any EventLoopGroup, host: String, port: Int, path: String, headers: [String: String], maximumBytes: Int, url: URL
    ) async throws -> SceneTransportResponse {
        let channel = try await ClientBootstrap(group: group)
            .connect(host: host, port: port) { channel in
                channel.eventLoop.makeCompletedFuture {
                    try channel.pipeline.syncOperations.addHTTPClientHandlers()
                    return try NIOAsyncChannel<HTTPClientResponsePart, HTTPClientRequestPart>(wrappingChannelSynchronously: channel)
                }
            }
        return try await channel.executeThenClose { inbound, outbound in
            var head = HTTPRequestHead(version: .http1_1, method: .GET, uri: path)
            head.headers.add(name: "Host", value: port == 80 ? host : "\(host):\(port)")
            head.headers.add(name: "User-Agent", value: "scenery/\(sceneryVersion)")
            head.headers.add(name: "Connection", value: "close")
            for (name, value) in headers { head.headers.add(name: name, value: value) }
            try await outbound.write(.head(head))
            try await outbound.write(.end(nil))
            var status = 0
            var fields: [String: String] = [:]
            var body = Data()
            for try await part in inbound {
                switch part {
                case .head(let response):
                    status = Int(response.status.code)
                    for (name, value) in response.headers { fields[name.lowercased()] = value }
                case .body(let buffer):
                    guard body.count + buffer.readableBytes <= maximumBytes else {
                        throw SceneTransportFailure("\(url.absoluteString) sent more than \(maximumBytes) bytes; a scene file must be smaller")
                    }
                    body.append(contentsOf: buffer.readableBytesView)
                case .end:
                    return SceneTransportResponse(status: status, headers: fields, body: body)
                }
            }
            throw SceneTransportFailure("\(url.absoluteString) closed the connection before the end of its answer")
        }
    }
}
