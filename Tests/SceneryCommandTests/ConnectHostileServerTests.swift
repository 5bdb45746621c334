import Foundation
import Scenery
import Testing

/// `scenery connect` does not trust the server: what it prints is stripped of terminal
/// control sequences, it stops following a server that only says "open it again", no server
/// holds it past its deadline, and a frame's declared length is checked before any of it is
/// kept.
@Suite(.timeLimit(.minutes(5))) struct ConnectHostileServerTests {
    let cli: CommandRunner

    init() throws { cli = try CommandRunner() }

    @Test func aRefusalsEscapeSequencesNeverReachTheTerminal() async throws {
        defer { cli.cleanUp() }
        let server = try HostileServer { connection in
            connection.respond(status: "429 Too Many Requests", json: #"{"type":"refused","message":"\u001b]0;owned\u0007\u001b[2Jcleared \u009b31mred"}"#)
        }
        defer { server.stop() }
        let result = try await cli.run(["connect", server.address, "x"])
        #expect(result.status == 2)
        #expect(result.error.contains("cleared"), "the message is shown: \(result.error)")
        #expect(!result.error.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }, "\(result.error.debugDescription)")
    }

    /// A message of a newer server: said once on the terminal, and reported to the server as
    /// the client's own problem (the scene's author hears of it).
    @Test func aMessageItCannotReadIsReportedToTheServer() async throws {
        defer { cli.cleanUp() }
        let sent = Locked<[String]>([])
        let server = try HostileServer.scene { connection in
            let hologram = Array(#"{"type":"hologram","sequence":1}"#.utf8)
            for _ in 0..<3 { connection.send([0x81, UInt8(hologram.count)] + hologram) }
            let texts = connection.readTexts { $0.contains(#""type":"problem""#) }
            sent.withLock { $0 = texts }
            let reason = Array("Enough.".utf8)
            connection.send([0x88, UInt8(2 + reason.count), 0x03, 0xF0] + reason)  // 1008: not worth reconnecting
        }
        defer { server.stop() }
        let result = try await cli.run(["connect", server.address, "x"], keepingInputOpen: true)
        #expect(result.output.components(separatedBy: "which page protocol 1 does not have").count == 2, "said once: \(result.output)")
        let problem = try #require(sent.withLock { $0 }.last, "the client reported nothing")
        #expect(problem.contains(#""kind":"decode""#) && problem.contains("hologram"), "\(problem)")
    }

    @Test func aServerThatClosesEverySocketWith4404IsFollowedAFewTimesThenLeft() async throws {
        defer { cli.cleanUp() }
        let server = try HostileServer.scene { connection in
            let reason = Array("Load the page again.".utf8)
            connection.send([0x88, UInt8(2 + reason.count), 0x11, 0x34] + reason)  // 4404
        }
        defer { server.stop() }
        let result = try await cli.run(["connect", server.address, "x"], keepingInputOpen: true)
        #expect(result.status == 2, "\(result.output)\n\(result.error)")
        #expect(result.error.contains("6 times in a row with nothing typed; stopping"), "\(result.error)")
        let sockets = server.requests.filter { $0.hasPrefix("/live") }.count
        #expect(sockets == 6, "the first socket and five more, not hundreds: \(sockets)")
    }

    @Test(arguments: ["silent", "dribbling"])
    func aServerThatNeverAnswersInFullIsLeftAtTheDeadline(kind: String) async throws {
        defer { cli.cleanUp() }
        let server = try HostileServer { connection in
            if kind == "dribbling" {
                for byte in "HTTP/1.1 200 OK\r\nContent-Type: application/json\r\n".utf8 {
                    connection.send([byte])
                    Thread.sleep(forTimeInterval: 0.2)
                }
            } else {
                connection.waitForTheClientToLeave()
            }
        }
        defer { server.stop() }
        let result = try await cli.run(["connect", server.address, "x", "--timeout", "1"])
        #expect(result.status == 2)
        #expect(result.error.contains("did not answer in full within 1 s"), "\(result.error)")
    }

    @Test(arguments: [UInt64(Int64.max), 1 << 30])
    func aFrameDeclaringMoreThanTheClientTakesIsRefusedFromItsHeader(length: UInt64) async throws {
        defer { cli.cleanUp() }
        let server = try HostileServer.scene { connection in
            connection.send(HostileServer.frameHeader(declaring: length) + Array(repeating: 0x20, count: 1_000))
        }
        defer { server.stop() }
        let result = try await cli.run(["connect", server.address, "x"], keepingInputOpen: true)
        #expect(result.status == 2, "\(result.output)\n\(result.error)")
        #expect(result.error.contains("a message of \(length) bytes, more than the 16777216 this client takes"), "\(result.error)")
    }
}
