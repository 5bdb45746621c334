import Foundation
import Scenery
import SceneryRemote

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `SceneTransport` over a plain socket, for `http://` scene servers: what the tool uses
/// with `--scenes http://HOST:PORT/scenes`.
///
/// The tool fetches a few small files at start, so it needs neither SwiftNIO (which would
/// make the quick start compile a network stack) nor URLSession (FoundationNetworking, which
/// loads libcurl at every start of every command on Linux). One GET per connection
/// (`Connection: close`), HTTP/1.1 with `Content-Length`, chunked or read-to-close bodies,
/// on a thread of its own so no task waits on a blocking call.
///
/// Enforces the ``RemoteScenes/Limits``: the whole exchange (name lookup aside, connection
/// included) has a deadline, the body is read up to the limit and no further, and
/// redirects are followed (up to five) only to the same host and port.
package struct SocketSceneTransport: SceneTransport {
    /// The most a response's head may take (status line and headers).
    static let largestHead = 64 * 1024

    package init() {}

    package func get(_ url: URL, headers: [String: String], limits: RemoteScenes.Limits) async throws(SceneTransportFailure) -> SceneTransportResponse {
        try await PlainHTTP.followingRedirects(from: url) { (url) async throws(SceneTransportFailure) in
            try await getOnce(url, headers: headers, limits: limits)
        }
    }

    private func getOnce(_ url: URL, headers: [String: String], limits: RemoteScenes.Limits) async throws(SceneTransportFailure) -> SceneTransportResponse {
        let host = try PlainHTTP.host(of: url)
        var path = url.path.isEmpty ? "/" : url.path
        if let query = url.query { path += "?\(query)" }
        let exchange = Exchange(
            url: url, host: host, port: url.port ?? 80, path: path, headers: headers, maximumBytes: limits.maximumBytes,
            deadline: ContinuousClock.now + limits.timeout)
        let result: Result<SceneTransportResponse, SceneTransportFailure> = await withCheckedContinuation { continuation in
            Thread { continuation.resume(returning: Result { () throws(SceneTransportFailure) in try exchange.run() }) }.start()
        }
        return try result.get()
    }
}

/// One GET, done with blocking calls bounded by a deadline.
private struct Exchange: Sendable {
    let url: URL
    let host: String
    let port: Int
    let path: String
    let headers: [String: String]
    let maximumBytes: Int
    let deadline: ContinuousClock.Instant

    func run() throws(SceneTransportFailure) -> SceneTransportResponse {
        let connection = try openConnection()
        defer { close(connection) }
        var request = "GET \(path) HTTP/1.1\r\nHost: \(port == 80 ? host : "\(host):\(port)")\r\n"
        request += "User-Agent: scenery/\(sceneryVersion)\r\nConnection: close\r\nAccept-Encoding: identity\r\n"
        for (name, value) in headers.sorted(by: { $0.key < $1.key }) where !name.contains("\r") && !value.contains("\r") && !value.contains("\n") {
            request += "\(name): \(value)\r\n"
        }
        try transmit(Array((request + "\r\n").utf8), on: connection)
        let bytes = try receiveAll(from: connection)
        return try parse(bytes)
    }

    private var timedOut: SceneTransportFailure { SceneTransportFailure("\(url.absoluteString) did not answer in time") }

    private func unreachable(_ code: Int32) -> SceneTransportFailure {
        SceneTransportFailure("\(url.absoluteString) could not be reached (\(String(cString: strerror(code)).lowercased()))")
    }

    /// Milliseconds left before the deadline, for `poll`.
    private func remaining() throws(SceneTransportFailure) -> Int32 {
        let left = deadline - ContinuousClock.now
        guard left > .zero else { throw timedOut }
        let (seconds, attoseconds) = left.components
        return Int32(clamping: seconds * 1000 + attoseconds / 1_000_000_000_000_000 + 1)
    }

    /// Waits until the socket is ready for `events`, or the deadline passes.
    private func wait(_ connection: Int32, for events: Int16) throws(SceneTransportFailure) {
        while true {
            var descriptor = pollfd(fd: connection, events: events, revents: 0)
            let ready = poll(&descriptor, 1, try remaining())
            if ready > 0 { return }
            if ready == 0 { throw timedOut }
            if errno != EINTR { throw unreachable(errno) }
        }
    }

    private func openConnection() throws(SceneTransportFailure) -> Int32 {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        let status = getaddrinfo(host, String(port), &hints, &list)
        guard status == 0, let first = list else {
            throw SceneTransportFailure("\(url.absoluteString) could not be reached (no address for \(host))")
        }
        defer { freeaddrinfo(first) }
        var lastError: Int32 = ECONNREFUSED
        var entry: UnsafeMutablePointer<addrinfo>? = first
        while let address = entry?.pointee {
            entry = address.ai_next
            let connection = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
            guard connection >= 0 else {
                lastError = errno
                continue
            }
            _ = fcntl(connection, F_SETFL, fcntl(connection, F_GETFL) | O_NONBLOCK)
            if connect(connection, address.ai_addr, address.ai_addrlen) == 0 { return connection }
            guard errno == EINPROGRESS else {
                lastError = errno
                close(connection)
                continue
            }
            do {
                try wait(connection, for: Int16(POLLOUT))
            } catch {
                close(connection)
                throw error
            }
            var problem: Int32 = 0
            var length = socklen_t(MemoryLayout<Int32>.size)
            getsockopt(connection, SOL_SOCKET, SO_ERROR, &problem, &length)
            if problem == 0 { return connection }
            lastError = problem
            close(connection)
        }
        throw unreachable(lastError)
    }

    private func transmit(_ bytes: [UInt8], on connection: Int32) throws(SceneTransportFailure) {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0  // the tool ignores SIGPIPE
        #endif
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(connection, $0.baseAddress, $0.count, flags) }
            if written > 0 {
                offset += written
            } else if errno == EAGAIN || errno == EINTR {
                try wait(connection, for: Int16(POLLOUT))
            } else {
                throw unreachable(errno)
            }
        }
    }

    /// Everything the server sends until it closes, refusing more than a head and the
    /// largest body allowed.
    private func receiveAll(from connection: Int32) throws(SceneTransportFailure) -> [UInt8] {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 16 * 1024)
        while true {
            try wait(connection, for: Int16(POLLIN))
            let count = buffer.withUnsafeMutableBytes { recv(connection, $0.baseAddress, $0.count, 0) }
            if count == 0 { return received }
            if count < 0 {
                if errno == EAGAIN || errno == EINTR { continue }
                throw unreachable(errno)
            }
            received += buffer[..<count]
            if received.count > SocketSceneTransport.largestHead + maximumBytes + 64 {  // 64: chunk framing
                throw tooLarge
            }
        }
    }

    private var tooLarge: SceneTransportFailure {
        SceneTransportFailure("\(url.absoluteString) sent more than \(maximumBytes) bytes; a scene file must be smaller")
    }

    private var truncated: SceneTransportFailure {
        SceneTransportFailure("\(url.absoluteString) closed the connection before the end of its answer")
    }

    private func malformed(_ what: String) -> SceneTransportFailure {
        SceneTransportFailure("\(url.absoluteString) gave a malformed HTTP response (\(what))")
    }

    private func parse(_ bytes: [UInt8]) throws(SceneTransportFailure) -> SceneTransportResponse {
        let separator: [UInt8] = Array("\r\n\r\n".utf8)
        guard let end = bytes.firstRange(of: separator) else {
            throw bytes.count > SocketSceneTransport.largestHead ? malformed("a head over 64 KB") : truncated
        }
        guard end.lowerBound <= SocketSceneTransport.largestHead else { throw malformed("a head over 64 KB") }
        let lines = String(decoding: bytes[..<end.lowerBound], as: UTF8.self).components(separatedBy: "\r\n")
        let statusParts = lines[0].split(separator: " ", maxSplits: 2)
        guard statusParts.count >= 2, statusParts[0].hasPrefix("HTTP/1."), let status = Int(statusParts[1]), (100...599).contains(status) else {
            throw malformed("status line \(lines[0].quoted)")
        }
        var fields: [String: String] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { throw malformed("header line \(line.quoted)") }
            let name = line[..<colon].trimmingCharacters(in: .whitespaces).lowercased()
            let value = line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces)
            fields[name] = fields[name].map { "\($0), \(value)" } ?? value
        }
        var body = Array(bytes[end.upperBound...])
        if status == 304 || status == 204 || (100..<200).contains(status) {
            body = []
        } else if fields["transfer-encoding"]?.lowercased().contains("chunked") == true {
            body = try unchunk(body)
        } else if let declared = fields["content-length"] {
            guard let length = Int(declared), length >= 0 else { throw malformed("Content-Length \(declared.quoted)") }
            guard length <= maximumBytes else { throw tooLarge }
            guard body.count >= length else { throw truncated }
            body = Array(body[..<length])
        }
        guard body.count <= maximumBytes else { throw tooLarge }
        return SceneTransportResponse(status: status, headers: fields, body: Data(body))
    }

    /// The body of a chunked response.
    private func unchunk(_ bytes: [UInt8]) throws(SceneTransportFailure) -> [UInt8] {
        var body: [UInt8] = []
        var index = 0
        let lineEnd: [UInt8] = [13, 10]
        while true {
            guard let sizeEnd = bytes[index...].firstRange(of: lineEnd) else { throw truncated }
            let sizeText = String(decoding: bytes[index..<sizeEnd.lowerBound], as: UTF8.self)
            guard let size = Int(sizeText.split(separator: ";").first.map(String.init)?.trimmingCharacters(in: .whitespaces) ?? "", radix: 16), size >= 0
            else { throw malformed("chunk size \(sizeText.quoted)") }
            index = sizeEnd.upperBound
            if size == 0 { return body }
            guard body.count + size <= maximumBytes else { throw tooLarge }
            guard bytes.count >= index + size + 2 else { throw truncated }
            body += bytes[index..<(index + size)]
            index += size + 2
        }
    }
}
