import Foundation

/// What the plain-HTTP transports share (the tool's socket and the tests' transport over SwiftNIO): one
/// GET at a time, following redirects only to the same scheme, host and port.
package enum PlainHTTP {
    /// `get(url)`, following up to five redirects to the same origin; a redirect elsewhere
    /// is returned as it is (``SceneFetcher`` reports it).
    package static func followingRedirects(
        from url: URL, _ get: (URL) async throws(SceneTransportFailure) -> SceneTransportResponse
    ) async throws(SceneTransportFailure) -> SceneTransportResponse {
        var current = url
        for _ in 0..<5 {
            let response = try await get(current)
            guard (300..<400).contains(response.status), response.status != 304, let location = response.headers["location"],
                let next = URL(string: location, relativeTo: current)?.absoluteURL,
                next.scheme == current.scheme, next.host == current.host, next.port == current.port
            else { return response }
            current = next
        }
        throw SceneTransportFailure("\(url.absoluteString) redirected more than five times")
    }

    /// The host of a plain `http://` address.
    /// - Throws: ``SceneTransportFailure`` for any other address.
    package static func host(of url: URL) throws(SceneTransportFailure) -> String {
        guard url.scheme == "http", let host = url.host, !host.isEmpty else {
            throw SceneTransportFailure(
                "\(url.absoluteString) is not an http:// address; the scenery command fetches scenes over plain HTTP (apps use URLSessionSceneTransport for HTTPS)"
            )
        }
        return host
    }
}
