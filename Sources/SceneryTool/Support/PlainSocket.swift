import Foundation
import Scenery

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// A TCP connection with blocking reads and writes, for the tool's view-tree client
/// (`scenery connect`): no SwiftNIO (the tool does not compile a network stack) and no
/// URLSession (FoundationNetworking loads libcurl at every start on Linux). Reads happen on
/// a thread of the client's own; writes are small and go out under a lock.
final class PlainSocket: @unchecked Sendable {
    /// The connection's descriptor; its number is not given to another connection while
    /// this socket exists.
    let descriptor: Int32
    /// Held while a write goes out, so two writes never interleave.
    private let writing = Locked(())
    private let isClosed = Locked(false)

    /// Connects to `host:port`, giving up after `timeout`.
    init(host: String, port: Int, timeout: Duration) throws(CommandFailure) {
        var hints = addrinfo()
        hints.ai_family = AF_UNSPEC
        #if canImport(Glibc)
            hints.ai_socktype = Int32(SOCK_STREAM.rawValue)
        #else
            hints.ai_socktype = SOCK_STREAM
        #endif
        var list: UnsafeMutablePointer<addrinfo>?
        guard getaddrinfo(host, String(port), &hints, &list) == 0, let first = list else {
            throw CommandFailure("Cannot reach \(host):\(port): no address for \(host.quoted); check the server's address.", code: .sceneryError)
        }
        defer { freeaddrinfo(first) }
        var entry: UnsafeMutablePointer<addrinfo>? = first
        var lastError = ECONNREFUSED
        let milliseconds = Int32(clamping: timeout.components.seconds * 1000 + timeout.components.attoseconds / 1_000_000_000_000_000)
        while let address = entry?.pointee {
            entry = address.ai_next
            let connection = socket(address.ai_family, address.ai_socktype, address.ai_protocol)
            guard connection >= 0 else {
                lastError = errno
                continue
            }
            let flags = fcntl(connection, F_GETFL)
            _ = fcntl(connection, F_SETFL, flags | O_NONBLOCK)
            var connected = connect(connection, address.ai_addr, address.ai_addrlen) == 0
            if !connected, errno == EINPROGRESS {
                var poller = pollfd(fd: connection, events: Int16(POLLOUT), revents: 0)
                if poll(&poller, 1, milliseconds) > 0 {
                    var problem: Int32 = 0
                    var length = socklen_t(MemoryLayout<Int32>.size)
                    getsockopt(connection, SOL_SOCKET, SO_ERROR, &problem, &length)
                    connected = problem == 0
                    lastError = problem == 0 ? lastError : problem
                } else {
                    lastError = ETIMEDOUT
                }
            } else if !connected {
                lastError = errno
            }
            if connected {
                _ = fcntl(connection, F_SETFL, flags)  // blocking again: reads wait on their thread
                descriptor = connection
                return
            }
            closeDescriptor(connection)
        }
        throw CommandFailure(
            "Cannot reach \(host):\(port) (\(String(cString: strerror(lastError)).lowercased())); is '\(ToolName.current) serve' running there?",
            code: .sceneryError)
    }

    /// Writes all of `bytes`; `false` when the connection is gone.
    @discardableResult
    func write(_ bytes: [UInt8]) -> Bool {
        writing.withLock { _ in !isEnded && writeAll(bytes) }
    }

    private func writeAll(_ bytes: [UInt8]) -> Bool {
        #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
        #else
            let flags: Int32 = 0
        #endif
        var offset = 0
        while offset < bytes.count {
            let written = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
            if written > 0 {
                offset += written
            } else if errno != EINTR {
                return false
            }
        }
        return true
    }

    /// Up to `count` bytes, waiting for at least one until `deadline`: empty at the end of
    /// the connection, `nil` when the deadline passed first (a server that never answers,
    /// or sends a byte now and then, holds no one past it).
    func read(upTo count: Int = 64 * 1024, before deadline: ContinuousClock.Instant) -> [UInt8]? {
        while true {
            let left = deadline - .now
            guard left > .zero else { return nil }
            var poller = pollfd(fd: descriptor, events: Int16(POLLIN), revents: 0)
            let milliseconds = Int32(clamping: left.components.seconds * 1000 + left.components.attoseconds / 1_000_000_000_000_000 + 1)
            let ready = poll(&poller, 1, milliseconds)
            if ready < 0, errno == EINTR { continue }
            if ready == 0 { continue }  // the deadline is checked again
            return read(upTo: count)
        }
    }

    /// Up to `count` bytes, waiting for at least one; empty at the end of the connection.
    func read(upTo count: Int = 64 * 1024) -> [UInt8] {
        var buffer = [UInt8](repeating: 0, count: count)
        while true {
            let received = buffer.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, count, 0) }
            if received > 0 { return Array(buffer[..<received]) }
            if received < 0, errno == EINTR { continue }
            return []
        }
    }

    /// Ends the connection: a read waiting on it ends, and later reads and writes fail;
    /// ending it again does nothing.
    ///
    /// The descriptor itself is released only when nothing holds the socket any more
    /// (`deinit`). Released here, its number would be free while another thread still held
    /// the socket, about to read or write: the system hands the number to the next
    /// connection opened, and a WebSocket's pong went out on the HTTP request made after it
    /// (the server answered 400 to a page the client opened on navigating).
    func close() {
        let wasOpen = isClosed.withLock { closed in
            defer { closed = true }
            return !closed
        }
        guard wasOpen else { return }
        shutdown(descriptor, Int32(SHUT_RDWR))
    }

    /// Whether ``close()`` was called.
    private var isEnded: Bool { isClosed.withLock { $0 } }

    deinit {
        shutdown(descriptor, Int32(SHUT_RDWR))
        closeDescriptor(descriptor)
    }
}

private func closeDescriptor(_ descriptor: Int32) {
    #if canImport(Glibc)
        _ = Glibc.close(descriptor)
    #else
        _ = Darwin.close(descriptor)
    #endif
}
