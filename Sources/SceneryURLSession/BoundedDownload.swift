import Foundation
import Scenery

#if canImport(FoundationNetworking)
    import FoundationNetworking
#endif

/// One download through ``SceneDownloads``: collects the body up to a limit, refuses
/// redirects to other hosts, and resumes its caller exactly once.
final class BoundedDownload: Sendable {
    enum Outcome: Sendable {
        case response(HTTPURLResponse, Data)
        case failure(String)
    }

    private let url: URL
    private let maximumBytes: Int
    private let state = Locked(State())

    /// What the download has so far, behind the lock.
    private struct State {
        var body = Data()
        var response: HTTPURLResponse?
        var tooLarge = false
        var timedOut = false
        var cancelled = false
        var task: URLSessionDataTask?
        var continuation: CheckedContinuation<Outcome, Never>?
    }

    init(url: URL, maximumBytes: Int) {
        self.url = url
        self.maximumBytes = maximumBytes
    }

    func start(_ task: URLSessionDataTask, _ continuation: CheckedContinuation<Outcome, Never>) {
        let cancelledAlready = state.withLock { state in
            state.task = task
            state.continuation = continuation
            return state.cancelled
        }
        task.resume()
        if cancelledAlready { task.cancel() }
    }

    /// Cancels the task, or the task to come when it has not started yet.
    func cancel() {
        state.withLock { state in
            state.cancelled = true
            return state.task
        }?.cancel()
    }

    /// Ends the download because its time is up.
    func timeOut() {
        state.withLock { $0.timedOut = true }
        cancel()
    }

    /// Keeps the response's head; `false` when the body it declares is over the limit.
    func accepts(_ response: URLResponse) -> Bool {
        let declared = response.expectedContentLength
        return state.withLock { state in
            state.response = response as? HTTPURLResponse
            if declared > maximumBytes { state.tooLarge = true }
            return !state.tooLarge
        }
    }

    /// Adds a part of the body; `false` (keeping none of it) when it goes over the limit.
    func append(_ data: Data) -> Bool {
        state.withLock { state in
            if state.body.count + data.count > maximumBytes {
                state.tooLarge = true
                return false
            }
            state.body.append(data)
            return true
        }
    }

    /// Same scheme, host and port only: a scene server cannot send the app elsewhere.
    func allowsRedirect(to request: URLRequest) -> Bool {
        request.url?.host == url.host && request.url?.scheme == url.scheme && request.url?.port == url.port
    }

    /// The task ended, with `error` or not: resumes the caller with what came.
    func complete(with error: (any Error)?) {
        let (response, body, tooLarge, timedOut) = state.withLock { ($0.response, $0.body, $0.tooLarge, $0.timedOut) }
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

    private func finish(_ outcome: Outcome) {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: outcome)
    }
}
