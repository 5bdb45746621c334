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
public struct URLSessionSceneTransport: SceneTransport {
    public init() {}

    public func get(_ url: URL, headers: [String: String], limits: RemoteScenes.Limits) async throws(SceneTransportFailure) -> SceneTransportResponse {
        var request = URLRequest(url: url)
        request.cachePolicy = .reloadIgnoringLocalCacheData
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        let configuration = URLSessionConfiguration.ephemeral
        // URLSession's own limits are whole seconds on some platforms; the deadline below is exact.
        configuration.timeoutIntervalForRequest = max(1, limits.timeout.seconds.rounded(.up)) + 1
        configuration.timeoutIntervalForResource = max(1, limits.timeout.seconds.rounded(.up)) + 1
        configuration.urlCache = nil
        let download = BoundedDownload(url: url, maximumBytes: limits.maximumBytes)
        let session = URLSession(configuration: configuration, delegate: download, delegateQueue: nil)
        defer { session.finishTasksAndInvalidate() }
        let timeout = limits.timeout
        let deadline = Task {
            try await Task.sleep(for: timeout)
            download.timeOut()
        }
        defer { deadline.cancel() }
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                download.start(session.dataTask(with: request), continuation)
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

/// The delegate of one download: collects the body up to a limit, refuses redirects to
/// other hosts, and resumes its caller exactly once.
final class BoundedDownload: NSObject, URLSessionDataDelegate, @unchecked Sendable {
    enum Outcome: Sendable {
        case response(HTTPURLResponse, Data)
        case failure(String)
    }

    private let url: URL
    private let maximumBytes: Int
    private let lock = NSLock()
    private var body = Data()
    private var response: HTTPURLResponse?
    private var tooLarge = false
    private var timedOut = false
    private var task: URLSessionDataTask?
    private var continuation: CheckedContinuation<Outcome, Never>?

    init(url: URL, maximumBytes: Int) {
        self.url = url
        self.maximumBytes = maximumBytes
    }

    func start(_ task: URLSessionDataTask, _ continuation: CheckedContinuation<Outcome, Never>) {
        lock.withLock {
            self.task = task
            self.continuation = continuation
        }
        task.resume()
    }

    func cancel() {
        lock.withLock { task }?.cancel()
    }

    /// Ends the download because its time is up.
    func timeOut() {
        lock.withLock { timedOut = true }
        cancel()
    }

    private func finish(_ outcome: Outcome) {
        let continuation = lock.withLock {
            defer { self.continuation = nil }
            return self.continuation
        }
        continuation?.resume(returning: outcome)
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let http = response as? HTTPURLResponse
        let declared = response.expectedContentLength
        lock.withLock {
            self.response = http
            if declared > maximumBytes { tooLarge = true }
        }
        completionHandler(declared > maximumBytes ? .cancel : .allow)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        let over = lock.withLock {
            if body.count + data.count > maximumBytes {
                tooLarge = true
                return true
            }
            body.append(data)
            return false
        }
        if over { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Same scheme, host and port only: a scene server cannot send the app elsewhere.
        let sameOrigin = request.url?.host == url.host && request.url?.scheme == url.scheme && request.url?.port == url.port
        completionHandler(sameOrigin ? request : nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (response, body, tooLarge, timedOut) = lock.withLock { (self.response, self.body, self.tooLarge, self.timedOut) }
        if timedOut {
            finish(.failure("\(url.absoluteString) did not answer in time"))
        } else if tooLarge {
            finish(.failure("\(url.absoluteString) sent more than \(maximumBytes) bytes; a scene file must be smaller"))
        } else if let error {
            let nsError = error as NSError
            let reason =
                nsError.code == NSURLErrorTimedOut
                ? "did not answer in time"
                : nsError.code == NSURLErrorCancelled ? "was cancelled" : "could not be reached (\(nsError.localizedDescription))"
            finish(.failure("\(url.absoluteString) \(reason)"))
        } else if let response {
            finish(.response(response, body))
        } else {
            finish(.failure("\(url.absoluteString) gave no HTTP response"))
        }
    }
}
