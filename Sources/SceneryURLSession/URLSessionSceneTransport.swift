import Foundation
import SceneryRemote

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// `SceneTransport` over `URLSession`: what an app uses to take scenes from a server.
///
/// ```swift
/// let scenes = RemoteScenes(server: url, registry: registry, transport: URLSessionSceneTransport(), cache: cache)
/// ```
///
/// Its own library because on Linux `URLSession` is FoundationNetworking, which loads
/// libcurl: only what fetches scenes should link it.
///
/// Every transport fetches through one session of the process's, made at the first fetch
/// and never invalidated, that keeps no cookies, credentials or cache: a session made and
/// invalidated per fetch is a known crash on Linux (FoundationNetworking's socket sources
/// racing the teardown of its libcurl handle), and one session also keeps its connections
/// to the scene server between refreshes.
public struct URLSessionSceneTransport: SceneTransport {
    public init() {}

    public func get(_ url: URL, headers: [String: String], limits: RemoteScenes.Limits) async throws(SceneTransportFailure) -> SceneTransportResponse {
        var request = URLRequest(url: url)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        // URLSession's own limit is whole seconds on some platforms; the deadline below is exact.
        request.timeoutInterval = max(1, limits.timeout.seconds.rounded(.up)) + 1
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let download = BoundedDownload(url: url, maximumBytes: limits.maximumBytes)
        let timeout = limits.timeout
        let deadline = Task {
            try await Task.sleep(for: timeout)
            download.timeOut()
        }
        defer { deadline.cancel() }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                SceneDownloads.shared.start(download, request: request, continuation: continuation)
            }
        } onCancel: {
            download.cancel()
        }
        switch outcome {
        case .failure(let message):
            throw SceneTransportFailure(message)
        case .response(let response, let body):
            var fields: [String: String] = [:]
            for (name, value) in response.allHeaderFields {
                if let name = name as? String, let value = value as? String { fields[name] = value }
            }
            return SceneTransportResponse(status: response.statusCode, headers: fields, body: body)
        }
    }
}

extension Duration {
    var seconds: Double { Double(components.seconds) + Double(components.attoseconds) / 1e18 }
}
