import Foundation
import Scenery
import Synchronization

@testable import SceneryTool

/// A server on loopback that answers `scenery connect` as an attacker's would: each
/// connection is handed to `behaviour` on a thread of its own, with the request's head.
final class HostileServer: Sendable {
    /// One accepted connection: its request head, and ways to answer.
    struct Connection: Sendable {
        let descriptor: Int32
        let head: String

        /// The request's path (`/api/scenes/x`, `/live?…`).
        var path: String { head.split(separator: " ").dropFirst().first.map(String.init) ?? "" }

        func send(_ bytes: [UInt8]) {
            _ = bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
        }

        func send(_ text: String) { send(Array(text.utf8)) }

        /// An HTTP response with a JSON body, then the connection is closed.
        func respond(status: String, json: String) {
            send("HTTP/1.1 \(status)\r\nContent-Type: application/json\r\nContent-Length: \(json.utf8.count)\r\nConnection: close\r\n\r\n\(json)")
        }

        /// Accepts the WebSocket upgrade (with the proof the client checks).
        func upgrade() {
            let key =
                head.components(separatedBy: "\r\n").first { $0.lowercased().hasPrefix("sec-websocket-key:") }?
                .dropFirst("sec-websocket-key:".count).trimmingCharacters(in: .whitespaces) ?? ""
            send(
                "HTTP/1.1 101 Switching Protocols\r\nUpgrade: websocket\r\nConnection: Upgrade\r\nSec-WebSocket-Accept: \(WebSocketAccept.value(for: key))\r\n\r\n"
            )
        }

        /// The client's text frames (unmasked), read until one satisfies `last`, the client
        /// goes, or a minute passes.
        func readTexts(until last: (String) -> Bool) -> [String] {
            var bytes: [UInt8] = []
            var texts: [String] = []
            var buffer = [UInt8](repeating: 0, count: 4096)
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while poll(&poller, 1, 60_000) > 0 {
                let count = recv(descriptor, &buffer, buffer.count, 0)
                guard count > 0 else { return texts }
                bytes += buffer[..<count]
                // Whole frames: FIN+opcode, MASK+length (7, 16 or 64 bits), the mask, the payload.
                while bytes.count >= 2 {
                    var length = Int(bytes[1] & 0x7F)
                    var offset = 2
                    if length == 126, bytes.count >= 4 {
                        length = Int(bytes[2]) << 8 | Int(bytes[3])
                        offset = 4
                    } else if length == 127 {
                        return texts  // no client message here is that long
                    }
                    guard bytes.count >= offset + 4 + length else { break }
                    let mask = Array(bytes[offset..<offset + 4])
                    let payload = bytes[(offset + 4)..<(offset + 4 + length)].enumerated().map { $0.element ^ mask[$0.offset % 4] }
                    let opcode = bytes[0] & 0x0F
                    bytes.removeFirst(offset + 4 + length)
                    guard opcode == 1 else { continue }
                    let text = String(decoding: payload, as: UTF8.self)
                    texts.append(text)
                    if last(text) { return texts }
                }
            }
            return texts
        }

        /// Waits until the client closes the connection (or a minute passes).
        func waitForTheClientToLeave() {
            var buffer = [UInt8](repeating: 0, count: 4096)
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            while poll(&poller, 1, 60_000) > 0, recv(descriptor, &buffer, buffer.count, 0) > 0 {}
        }
    }

    let port: Int
    private let listener: Int32
    private let log = Log()

    private final class Log: Sendable {
        let paths = Locked<[String]>([])
    }

    /// The paths of the requests accepted so far.
    var requests: [String] { log.paths.withLock { $0 } }

    var address: String { "http://127.0.0.1:\(port)" }

    init(_ behaviour: @escaping @Sendable (Connection) -> Void) throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        self.listener = listener
        var yes: Int32 = 1
        setsockopt(listener, SOL_SOCKET, SO_REUSEADDR, &yes, socklen_t(MemoryLayout<Int32>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = 0
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let bound = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard bound == 0, listen(listener, 16) == 0 else { throw POSIXError(.EADDRINUSE) }
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        port = Int(UInt16(bigEndian: address.sin_port))
        let log = self.log
        Thread.detachNewThread {
            while true {
                let descriptor = accept(listener, nil, nil)
                guard descriptor >= 0 else { return }
                Thread.detachNewThread {
                    defer { close(descriptor) }
                    guard let head = Self.readHead(descriptor) else { return }
                    let connection = Connection(descriptor: descriptor, head: head)
                    log.paths.withLock { $0.append(connection.path) }
                    behaviour(connection)
                }
            }
        }
    }

    /// Stops accepting connections.
    func stop() {
        shutdown(listener, Int32(SHUT_RDWR))
        close(listener)
    }

    private static func readHead(_ descriptor: Int32) -> String? {
        var received: [UInt8] = []
        var buffer = [UInt8](repeating: 0, count: 4096)
        while !String(decoding: received, as: UTF8.self).contains("\r\n\r\n") {
            let count = recv(descriptor, &buffer, buffer.count, 0)
            guard count > 0 else { return nil }
            received += buffer[..<count]
        }
        return String(decoding: received, as: UTF8.self)
    }

    /// A server that opens any scene (``sceneDocument``) and upgrades its socket, then
    /// does `onSocket` on it and waits for the client to leave.
    static func scene(onSocket: @escaping @Sendable (Connection) -> Void) throws -> HostileServer {
        try HostileServer { connection in
            guard !connection.path.hasPrefix("/api/") else {
                connection.respond(status: "200 OK", json: sceneDocument)
                return
            }
            connection.upgrade()
            onSocket(connection)
            connection.waitForTheClientToLeave()
        }
    }

    /// What `/api/scenes/…` answers: a scene of one text, session `s1`, numbered 0.
    static var sceneDocument: String {
        let document = ViewTreeDocument(scene: "x", variant: "default", root: .text("t", "Hello", role: .title))
        let encoded = (try? JSONEncoder().encode(document)).map { String(decoding: $0, as: UTF8.self) } ?? "{}"
        return #"{"type":"tree","session":"s1","protocol":1,"sequence":0,"# + encoded.dropFirst()
    }

    /// A server frame's header declaring `length` bytes (text, final), with no payload.
    static func frameHeader(declaring length: UInt64) -> [UInt8] {
        [0x81, 127] + (0..<8).reversed().map { UInt8((length >> (UInt64($0) * 8)) & 0xFF) }
    }
}
