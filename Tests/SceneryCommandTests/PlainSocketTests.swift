import Foundation
import Testing

@testable import SceneryTool

/// The tool's own TCP connection (`scenery connect`'s HTTP requests and page socket).
@Suite(.timeLimit(.minutes(1))) struct PlainSocketTests {
    /// A page socket's reader thread may still hold its socket (to answer a ping) when the
    /// client, navigating, opens the next page over HTTP: what it writes must not reach
    /// that request's connection, as it did when the descriptor was released on close.
    @Test func aClosedSocketsWriteNeverReachesTheConnectionOpenedAfterIt() async throws {
        let (heads, arrived) = AsyncStream.makeStream(of: String.self)
        let server = try HostileServer { connection in
            arrived.yield(connection.head)
            connection.waitForTheClientToLeave()
        }
        defer { server.stop() }
        let first = try PlainSocket(host: "127.0.0.1", port: server.port, timeout: .seconds(10))
        first.close()
        let second = try PlainSocket(host: "127.0.0.1", port: server.port, timeout: .seconds(10))
        defer { second.close() }
        #expect(first.descriptor != second.descriptor, "a closed socket's number is not handed on while the socket exists")
        #expect(!first.write(Array("PONG-FRAME ".utf8)), "a closed socket writes nothing")
        #expect(first.read(before: .now + .seconds(5)) == [], "a closed socket reads the end")
        #expect(second.write(Array("GET /second HTTP/1.1\r\nHost: x\r\n\r\n".utf8)))
        let head = await heads.first { _ in true }
        #expect(head?.hasPrefix("GET /second HTTP/1.1\r\n") == true, "\(head?.debugDescription ?? "no request")")
    }
}
