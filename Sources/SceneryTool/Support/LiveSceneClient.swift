import Foundation
import Scenery
import SceneryPageProtocol

/// The tool's client of a running `scenery serve`, for `scenery connect`: signs in, opens a
/// scene as a view-tree document (`/api/scenes/ID`), and talks to its page socket (`/live`)
/// in the page protocol, over a WebSocket of its own (RFC 6455, text frames, masked as a
/// client must).
struct LiveSceneClient: Sendable {
    let host: String
    let port: Int
    /// How long the server may take to answer a request or a socket's handshake in full,
    /// and to finish a message it started; a socket that hears nothing (not even a ping)
    /// for twice as long is taken as lost.
    var timeout: Duration = .seconds(30)
    /// The `Cookie` header: the signed-in viewer (and the visitor id the server set).
    private(set) var cookies: [String: String] = [:]

    /// The server's own origin, which it requires of sign-ins and sockets.
    var origin: String { "http://\(host):\(port)" }

    init(server: URL) throws(CommandFailure) {
        guard server.scheme == "http", let host = server.host(), !host.isEmpty else {
            throw CommandFailure(
                "\(server.absoluteString.quoted) is not a server address; give one such as http://127.0.0.1:8080 (what '\(ToolName.current) serve' prints).",
                code: .usage)
        }
        self.host = host.hasPrefix("[") ? String(host.dropFirst().dropLast()) : host
        port = server.port ?? 80
    }

    /// One HTTP exchange (`Connection: close`): status, headers by lowercased name, body.
    /// ``open(_:)`` asks once more when the server closes the connection without an answer
    /// (a scene's GET changes nothing).
    func exchange(_ method: String, _ path: String, body: String? = nil) throws(CommandFailure) -> (status: Int, headers: [String: [String]], body: Data) {
        let socket = try PlainSocket(host: host, port: port, timeout: .seconds(10))
        defer { socket.close() }
        var request = "\(method) \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nConnection: close\r\nOrigin: \(origin)\r\n"
        request += "User-Agent: scenery/\(sceneryVersion)\r\nAccept: application/json\r\n"
        if !cookies.isEmpty { request += "Cookie: \(cookieHeader)\r\n" }
        if let body {
            request += "Content-Type: application/x-www-form-urlencoded\r\nContent-Length: \(body.utf8.count)\r\n\r\n\(body)"
        } else {
            request += "\r\n"
        }
        guard socket.write(Array(request.utf8)) else { throw lost }
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        while received.count < 64 * 1024 * 1024 {
            guard let bytes = socket.read(before: deadline) else { throw tooSlow }
            if bytes.isEmpty { break }
            received += bytes
        }
        guard let (status, headers, rest) = Self.head(of: received) else { throw lost }
        var body = rest
        if let length = headers["content-length"]?.first.flatMap(Int.init), length <= body.count { body = Array(body.prefix(length)) }
        return (status, headers, Data(body))
    }

    private var tooSlow: CommandFailure {
        CommandFailure(
            "The server at \(origin) did not answer in full within \(timeout.components.seconds) s; is it '\(ToolName.current) serve', and is it overloaded? Try again, or give a longer --timeout.",
            code: .sceneryError)
    }

    private var lost: CommandFailure {
        CommandFailure("The server at \(origin) closed the connection without an answer; is it '\(ToolName.current) serve'?", code: .sceneryError)
    }

    private var cookieHeader: String { cookies.sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value)" }.joined(separator: "; ") }

    /// Keeps the cookies a response sets.
    mutating func keepCookies(from headers: [String: [String]]) {
        for header in headers["set-cookie"] ?? [] {
            let pair = header.prefix { $0 != ";" }
            guard let equals = pair.firstIndex(of: "=") else { continue }
            cookies[String(pair[..<equals])] = String(pair[pair.index(after: equals)...])
        }
    }

    /// Signs in as `viewer` the way the sign-in form does.
    mutating func signIn(as viewer: String) throws(CommandFailure) {
        let encoded = viewer.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? viewer
        let response = try exchange("POST", "/sign-in", body: "user=\(encoded)&next=/")
        guard response.status == 303, response.headers["set-cookie"] != nil else {
            throw CommandFailure(
                "The server at \(origin) did not sign in user \(viewer.quoted) (status \(response.status)); sign in as one of its users (see its /sign-in page).",
                code: .usage)
        }
        keepCookies(from: response.headers)
    }

    /// Opens a scene (a path such as `/scenes/user-profile?user=1`, as navigation gives it)
    /// as a view-tree document: its session, sequence and tree.
    mutating func open(_ path: String) throws(CommandFailure) -> (session: String, sequence: Int, document: ViewTreeDocument) {
        let response: (status: Int, headers: [String: [String]], body: Data)
        do {
            response = try exchange("GET", "/api" + path + Self.kindsQuery(after: path))
        } catch {
            // A GET changes nothing: a server that dropped the connection without a word (an
            // overloaded one shedding it) is asked once more before the person is told.
            guard error.description == lost.description else { throw error }
            response = try exchange("GET", "/api" + path + Self.kindsQuery(after: path))
        }
        keepCookies(from: response.headers)
        let message = try? JSONDecoder().decode(JSONValue.self, from: response.body)
        guard response.status == 200 else {
            // The server's words go to a terminal: never its escape sequences.
            throw CommandFailure(
                message?["message"]?.stringValue.map { TerminalText.sanitized(String($0.prefix(1_000))) }
                    ?? "The server at \(origin) answered \(response.status) for \(TerminalText.sanitized(path).quoted).",
                code: .sceneryError)
        }
        guard let session = message?["session"]?.stringValue,
            case .tree(let sequence, let document)? = try? JSONDecoder().decode(PageProtocol.ServerMessage.self, from: response.body)
        else {
            throw CommandFailure(
                "The server at \(origin) did not send a view-tree scene for \(path.quoted); is it '\(ToolName.current) serve' of this version?",
                code: .sceneryError)
        }
        return (session, sequence, document)
    }

    /// The node kinds the terminal draws (every kind), named in a scene's address after
    /// `path`'s own query.
    static func kindsQuery(after path: String) -> String {
        (path.contains("?") ? "&" : "?") + "kinds=" + PageProtocol.NodeKinds.every.query
    }

    /// Connects to a session's page socket, having applied `since`; its messages arrive in
    /// order on the stream, which ends when the socket closes (with the close reason, if any).
    /// With the page's last `resume` token, a server that does not hold the session (it
    /// restarted, or it is another server of the site) makes the page again from it.
    func connect(session: String, since: Int, resume token: String? = nil) throws(CommandFailure) -> WebSocketClient {
        let socket = try PlainSocket(host: host, port: port, timeout: .seconds(10))
        var key = [UInt8](repeating: 0, count: 16)
        for index in key.indices { key[index] = UInt8.random(in: 0...255) }
        var path = "/live?session=\(session.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? session)&since=\(since)"
        path += "&protocol=\(PageProtocol.version)&kinds=\(PageProtocol.NodeKinds.every.query)"
        if let token { path += "&resume=\(token.addingPercentEncoding(withAllowedCharacters: .alphanumerics) ?? token)" }
        var request = "GET \(path) HTTP/1.1\r\nHost: \(host):\(port)\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        let encodedKey = Data(key).base64EncodedString()
        request += "Sec-WebSocket-Key: \(encodedKey)\r\nSec-WebSocket-Version: 13\r\nOrigin: \(origin)\r\n"
        if !cookies.isEmpty { request += "Cookie: \(cookieHeader)\r\n" }
        guard socket.write(Array((request + "\r\n").utf8)) else { throw lost }
        var received: [UInt8] = []
        let deadline = ContinuousClock.now + timeout
        while true {
            guard let bytes = socket.read(before: deadline) else {
                socket.close()
                throw tooSlow
            }
            guard !bytes.isEmpty else { throw lost }
            received += bytes
            if let (status, headers, rest) = Self.head(of: received) {
                guard status == 101, headers["upgrade"]?.first?.lowercased() == "websocket" else {
                    socket.close()
                    throw CommandFailure("The server at \(origin) refused the scene's socket (status \(status)); open the scene again.", code: .sceneryError)
                }
                // The answer must prove the server read this request (RFC 6455 §4.1).
                guard headers["sec-websocket-accept"]?.first == WebSocketAccept.value(for: encodedKey) else {
                    socket.close()
                    throw CommandFailure(
                        "The server at \(origin) answered the scene's socket without the proof a WebSocket server gives (Sec-WebSocket-Accept); is something between you and the server rewriting the connection?",
                        code: .sceneryError)
                }
                return WebSocketClient(socket: socket, buffered: rest, timeout: timeout)
            }
            if received.count > 64 * 1024 { throw lost }
        }
    }

    /// Splits a response into its status, headers and the bytes after the head; `nil` until
    /// the head is complete.
    static func head(of bytes: [UInt8]) -> (status: Int, headers: [String: [String]], rest: [UInt8])? {
        let end: [UInt8] = [13, 10, 13, 10]
        guard let range = bytes.indices.dropLast(3).first(where: { Array(bytes[$0..<$0 + 4]) == end }) else { return nil }
        let lines = String(decoding: bytes[..<range], as: UTF8.self).components(separatedBy: "\r\n")
        let status = lines.first.flatMap { $0.split(separator: " ").dropFirst().first.flatMap { Int($0) } } ?? 0
        var headers: [String: [String]] = [:]
        for line in lines.dropFirst() {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased(), default: []].append(line[line.index(after: colon)...].trimmingCharacters(in: .whitespaces))
        }
        return (status, headers, Array(bytes[(range + 4)...]))
    }
}

/// A client's WebSocket: text messages in, text messages out.
final class WebSocketClient: Sendable {
    private let socket: PlainSocket
    /// Text messages as they arrive; ends when the socket closes, after a `closed` element
    /// with the server's close code and reason.
    let messages: AsyncStream<Message>

    enum Message: Sendable {
        case text(String)
        /// The server closed the socket (with its code and reason), or this client did,
        /// refusing what came (no code: a message too large, a server too slow).
        case closed(code: Int?, reason: String)
        /// The connection ended without a close (the server went away, a proxy dropped it).
        case lost
    }

    /// The largest message the client takes from a server, in bytes (a frame, or the
    /// fragments of one message together).
    static let largestMessage = 16 * 1024 * 1024

    init(socket: PlainSocket, buffered: [UInt8], timeout: Duration) {
        self.socket = socket
        let (stream, continuation) = AsyncStream.makeStream(of: Message.self)
        messages = stream
        Thread.detachNewThread {
            var reader = FrameReader(buffer: buffered, largestFrame: Self.largestMessage, timeout: timeout)
            var fragments: [UInt8] = []
            while true {
                let frame: FrameReader.Frame
                switch reader.next(reading: socket) {
                case .success(let next): frame = next
                case .failure(.ended):
                    continuation.yield(.lost)
                    socket.close()
                    continuation.finish()
                    return
                case .failure(let failure):
                    continuation.yield(.closed(code: nil, reason: failure.reason))
                    socket.close()
                    continuation.finish()
                    return
                }
                switch frame.opcode {
                case 0x1, 0x0:
                    guard fragments.count + frame.payload.count <= Self.largestMessage else {
                        continuation.yield(.closed(code: nil, reason: FrameReader.Failure.tooLarge(UInt64(fragments.count + frame.payload.count)).reason))
                        socket.close()
                        continuation.finish()
                        return
                    }
                    fragments += frame.payload
                    if frame.isFinal {
                        continuation.yield(.text(String(decoding: fragments, as: UTF8.self)))
                        fragments = []
                    }
                case 0x8:
                    let code = frame.payload.count >= 2 ? Int(frame.payload[0]) << 8 | Int(frame.payload[1]) : nil
                    let reason = frame.payload.count > 2 ? String(decoding: frame.payload[2...], as: UTF8.self) : ""
                    socket.write(Self.frame(opcode: 0x8, payload: Array(frame.payload.prefix(2))))
                    continuation.yield(.closed(code: code, reason: reason))
                    socket.close()
                    continuation.finish()
                    return
                case 0x9: socket.write(Self.frame(opcode: 0xA, payload: frame.payload))
                default: break
                }
            }
            socket.close()
            continuation.finish()
        }
    }

    /// Sends a text message; `false` when the socket is gone.
    @discardableResult
    func send(_ text: String) -> Bool {
        socket.write(Self.frame(opcode: 0x1, payload: Array(text.utf8)))
    }

    /// Closes the socket normally.
    func close() {
        socket.write(Self.frame(opcode: 0x8, payload: [0x03, 0xE8]))
        socket.close()
    }

    /// A masked client frame.
    static func frame(opcode: UInt8, payload: [UInt8]) -> [UInt8] {
        var bytes: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126: bytes.append(0x80 | UInt8(payload.count))
        case ..<65_536: bytes += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            bytes.append(0x80 | 127)
            for shift in stride(from: 56, through: 0, by: -8) { bytes.append(UInt8((UInt64(payload.count) >> UInt64(shift)) & 0xFF)) }
        }
        let mask = (0..<4).map { _ in UInt8.random(in: 0...255) }
        bytes += mask
        for (index, byte) in payload.enumerated() { bytes.append(byte ^ mask[index % 4]) }
        return bytes
    }
}

/// Server frames from a byte stream: unmasked, at most ``largestFrame`` bytes each (a
/// frame that declares more is refused from its header, before any of it is kept).
private struct FrameReader {
    struct Frame {
        var isFinal: Bool
        var opcode: UInt8
        var payload: [UInt8]
    }

    /// Why no frame came.
    enum Failure: Error {
        case ended
        case tooLarge(UInt64)
        case tooSlow(Duration)

        var reason: String {
            switch self {
            case .ended: "The connection was lost."
            case .tooLarge(let bytes): "The server sent a message of \(bytes) bytes, more than the \(WebSocketClient.largestMessage) this client takes."
            case .tooSlow(let time): "The server sent nothing for \(time.components.seconds) s, or too slowly; the connection is taken as lost."
            }
        }
    }

    var buffer: [UInt8]
    let largestFrame: Int
    /// How long a frame may take to arrive once started; silence (no frame, not even the
    /// server's ping) is allowed twice as long.
    let timeout: Duration

    /// The next frame, reading as needed.
    mutating func next(reading socket: PlainSocket) -> Result<Frame, Failure> {
        var deadline = ContinuousClock.now + (buffer.isEmpty ? timeout * 2 : timeout)
        while true {
            switch take() {
            case .success(let frame?): return .success(frame)
            case .failure(let failure): return .failure(failure)
            case .success(nil): break
            }
            guard let bytes = socket.read(before: deadline) else { return .failure(.tooSlow(buffer.isEmpty ? timeout * 2 : timeout)) }
            if bytes.isEmpty { return .failure(.ended) }
            if buffer.isEmpty { deadline = min(deadline, ContinuousClock.now + timeout) }  // a frame started
            buffer += bytes
        }
    }

    /// The frame at the start of the buffer: `nil` until all of it is there, a failure as
    /// soon as its header declares more than ``largestFrame`` bytes.
    private mutating func take() -> Result<Frame?, Failure> {
        guard buffer.count >= 2 else { return .success(nil) }
        var length = UInt64(buffer[1] & 0x7F)
        var offset = 2
        if length == 126 {
            guard buffer.count >= 4 else { return .success(nil) }
            length = UInt64(buffer[2]) << 8 | UInt64(buffer[3])
            offset = 4
        } else if length == 127 {
            guard buffer.count >= 10 else { return .success(nil) }
            length = buffer[2..<10].reduce(0) { $0 << 8 | UInt64($1) }
            offset = 10
        }
        guard length <= UInt64(largestFrame) else { return .failure(.tooLarge(length)) }
        let end = offset + Int(length)
        guard buffer.count >= end else { return .success(nil) }
        let frame = Frame(isFinal: buffer[0] & 0x80 != 0, opcode: buffer[0] & 0x0F, payload: Array(buffer[offset..<end]))
        buffer.removeFirst(end)
        return .success(frame)
    }
}
