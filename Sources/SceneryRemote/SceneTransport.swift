import Foundation

/// How ``RemoteScenes`` talks HTTP: one bounded GET at a time.
///
/// Apps use `URLSessionSceneTransport` (the SceneryURLSession library); a server implements
/// this protocol over the HTTP client it has (the tests' one is over SwiftNIO). The `scenery` command fetches over a plain
/// socket of its own: linking URLSession on Linux would load libcurl and its libraries at
/// every start, and NIO would make its first build compile a network stack.
///
/// A transport must enforce ``RemoteScenes/Limits``: stop reading past
/// ``RemoteScenes/Limits/maximumBytes``, give up after ``RemoteScenes/Limits/timeout``, and
/// follow redirects only to the same scheme, host and port.
public protocol SceneTransport: Sendable {
    /// Gets `url` with the given request headers (`If-None-Match`, `If-Modified-Since`).
    /// - Throws: ``SceneTransportFailure`` saying, in words for a diagnostic, why there
    ///   is no response.
    func get(_ url: URL, headers: [String: String], limits: RemoteScenes.Limits) async throws(SceneTransportFailure) -> SceneTransportResponse
}

/// An HTTP response: status, headers (names in lower case) and body.
public struct SceneTransportResponse: Sendable {
    public var status: Int
    public var headers: [String: String]
    public var body: Data

    public init(status: Int, headers: [String: String], body: Data) {
        self.status = status
        self.headers = Dictionary(headers.map { ($0.key.lowercased(), $0.value) }, uniquingKeysWith: { first, _ in first })
        self.body = body
    }
}

/// Why a transport got no response, in words for a diagnostic (`… did not answer in time`).
public struct SceneTransportFailure: Error, Sendable, CustomStringConvertible {
    public var description: String

    public init(_ description: String) {
        self.description = description
    }
}

/// One GET through a transport, turned into what a refresh needs.
struct SceneFetcher: Sendable {
    var transport: any SceneTransport
    var limits: RemoteScenes.Limits

    /// What a GET gave.
    enum Result: Sendable {
        /// A new body, with its validators.
        case fresh(Data, etag: String?, lastModified: String?)
        /// `304 Not Modified`: the cached version is current.
        case notModified
    }

    func get(_ url: URL, etag: String? = nil, lastModified: String? = nil) async throws(SceneTransportFailure) -> Result {
        var headers = ["Accept": "application/json"]
        if let etag { headers["If-None-Match"] = etag }
        if let lastModified { headers["If-Modified-Since"] = lastModified }
        let response = try await transport.get(url, headers: headers, limits: limits)
        guard response.body.count <= limits.maximumBytes else {
            throw SceneTransportFailure("\(url.absoluteString) sent more than \(limits.maximumBytes) bytes; a scene file must be smaller")
        }
        switch response.status {
        case 304:
            return .notModified
        case 200:
            let type = response.headers["content-type"]?.lowercased() ?? ""
            guard type.hasPrefix("application/json") || type.contains("+json") else {
                throw SceneTransportFailure("\(url.absoluteString) answered with the content type '\(type.isEmpty ? "none" : type)', not application/json")
            }
            return .fresh(response.body, etag: response.headers["etag"], lastModified: response.headers["last-modified"])
        case 300..<400:
            throw SceneTransportFailure(
                "\(url.absoluteString) redirected to another host (\(response.headers["location"] ?? "no location")); only redirects to the same host are followed"
            )
        default:
            throw SceneTransportFailure("\(url.absoluteString) answered \(response.status)")
        }
    }
}
