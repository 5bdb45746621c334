import Foundation

/// A raw TCP connection to a server on loopback, for requests no HTTP client sends: a NUL in
/// the request line, headers that never end, a body that never comes.
///
/// Reading happens on a thread of its own (not the cooperative pool the server's tasks
/// need), and waits for the server to close the connection: the event the tests expect.
final class RawConnection: @unchecked Sendable {
    private let descriptor: Int32

    init(port: Int) throws {
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        guard descriptor >= 0 else { throw POSIXError(.init(rawValue: errno) ?? .EIO) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let status = withUnsafePointer(to: &address) { pointer in
            pointer.withMemoryRebound(to: sockaddr.self, capacity: 1) { connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size)) }
        }
        guard status == 0 else {
            close(descriptor)
            throw POSIXError(.init(rawValue: errno) ?? .ECONNREFUSED)
        }
    }

    deinit { close(descriptor) }

    /// A WebSocket upgrade request for `target`, from the server's own origin.
    static func upgradeRequest(to target: String) -> String {
        "GET \(target) HTTP/1.1\r\nHost: localhost\r\nOrigin: http://localhost\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
            + "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n\r\n"
    }

    /// Sends bytes as they are.
    func send(_ text: String) {
        let bytes = Array(text.utf8)
        _ = bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// Sends bytes as they are.
    func send(bytes: [UInt8]) {
        _ = bytes.withUnsafeBytes { Foundation.send(descriptor, $0.baseAddress, $0.count, Int32(MSG_NOSIGNAL)) }
    }

    /// One WebSocket frame as a client would write it (masked unless told otherwise), or as
    /// one that breaks the rules would. The payload is shorter than 126 bytes.
    static func frame(opcode: UInt8, fin: Bool = true, reserved: UInt8 = 0, masked: Bool = true, payload: [UInt8]) -> [UInt8] {
        precondition(payload.count < 126)
        var bytes: [UInt8] = [(fin ? 0x80 : 0) | (reserved << 4) | opcode, (masked ? 0x80 : 0) | UInt8(payload.count)]
        guard masked else { return bytes + payload }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        bytes += mask
        bytes += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        return bytes
    }

    /// Every byte the server sends until it closes the connection (or `safety` passes).
    func readBytesUntilClosed(safety: Duration = .seconds(30)) async -> (bytes: [UInt8], closed: Bool) {
        await readBytes(until: { _ in false }, safety: safety)
    }

    /// Everything the server sends until it closes the connection. `safety` only keeps a
    /// broken server from hanging the suite; `closed` says whether the server closed it.
    func readUntilClosed(safety: Duration = .seconds(30)) async -> (text: String, closed: Bool) {
        await read(until: { _ in false }, safety: safety)
    }

    /// What the server sends until `isEnough` holds for everything received so far, or the
    /// server closes the connection.
    func read(
        until isEnough: @escaping @Sendable (String) -> Bool, safety: Duration = .seconds(30)
    ) async -> (text: String, closed: Bool) {
        let (bytes, closed) = await readBytes(until: { isEnough(String(decoding: $0, as: UTF8.self)) }, safety: safety)
        return (String(decoding: bytes, as: UTF8.self), closed)
    }

    /// The bytes the server sends until `isEnough` holds for all received so far, or the
    /// server closes the connection, read on a thread of its own.
    private func readBytes(
        until isEnough: @escaping @Sendable ([UInt8]) -> Bool, safety: Duration
    ) async -> (bytes: [UInt8], closed: Bool) {
        let descriptor = self.descriptor
        let milliseconds = Int32(safety.components.seconds * 1000)
        return await withCheckedContinuation { continuation in
            Thread.detachNewThread {
                var received: [UInt8] = []
                var buffer = [UInt8](repeating: 0, count: 4096)
                var closed = false
                let deadline = Date().addingTimeInterval(Double(milliseconds) / 1000)
                while Date() < deadline {
                    var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
                    let ready = poll(&poller, 1, Int32(max(1, deadline.timeIntervalSinceNow * 1000)))
                    guard ready > 0 else { continue }
                    let count = recv(descriptor, &buffer, buffer.count, 0)
                    if count <= 0 {
                        closed = true
                        break
                    }
                    received += buffer[..<count]
                    if isEnough(received) { break }
                }
                continuation.resume(returning: (received, closed))
            }
        }
    }
}
