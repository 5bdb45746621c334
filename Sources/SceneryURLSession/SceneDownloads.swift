import Foundation
import Scenery

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// The one `URLSession` every ``URLSessionSceneTransport`` fetches through, and its delegate:
/// it hands each task's callbacks to that task's ``BoundedDownload``.
///
/// The session is never invalidated (it lives as long as the process, as `URLSession.shared`
/// does): on Linux, invalidating a session while FoundationNetworking still watches one of
/// its sockets can crash the process in libdispatch (swift-corelibs-foundation #4791 and its
/// follow-ups), and a session per fetch did that on every fetch.
final class SceneDownloads: NSObject, URLSessionDataDelegate, Sendable {
    static let shared = SceneDownloads()

    /// Downloads under way, by their task's identifier.
    private let downloads = Locked<[Int: BoundedDownload]>([:])

    private let session = Locked<URLSession?>(nil)

    /// Starts `request` for `download`, which resumes `continuation` once, when it ends.
    func start(_ download: BoundedDownload, request: URLRequest, continuation: CheckedContinuation<BoundedDownload.Outcome, Never>) {
        let task = urlSession().dataTask(with: request)
        downloads.withLock { $0[task.taskIdentifier] = download }
        download.start(task, continuation)
    }

    /// The session, made at the first fetch: no cookies, credentials or cache (a scene
    /// server's answers are the scene cache's to keep, by their ETags).
    private func urlSession() -> URLSession {
        session.withLock { session in
            if let session { return session }
            let configuration = URLSessionConfiguration.ephemeral
            configuration.urlCache = nil
            configuration.httpCookieStorage = nil
            configuration.httpShouldSetCookies = false
            configuration.httpCookieAcceptPolicy = .never
            configuration.urlCredentialStorage = nil
            let made = URLSession(configuration: configuration, delegate: self, delegateQueue: nil)
            session = made
            return made
        }
    }

    private func download(for task: URLSessionTask) -> BoundedDownload? {
        downloads.withLock { $0[task.taskIdentifier] }
    }

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        guard let download = download(for: dataTask) else { return completionHandler(.cancel) }
        completionHandler(download.accepts(response) ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let download = download(for: dataTask) else { return dataTask.cancel() }
        if !download.append(data) { dataTask.cancel() }
    }

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse, newRequest request: URLRequest,
        completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let allowed = download(for: task)?.allowsRedirect(to: request) ?? false
        completionHandler(allowed ? request : nil)
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let download = downloads.withLock { $0.removeValue(forKey: task.taskIdentifier) }
        download?.complete(with: error)
    }
}
