import Foundation
import SceneryExperiments
import Testing

@testable import Scenery

/// The impression log writes off the recording thread: a disk (here a pipe nobody reads
/// yet) that does not take the lines never holds a scene that records one.
@Suite(.timeLimit(.minutes(5))) struct JSONLinesImpressionSinkTests {
    static func record(_ unit: Int) -> ImpressionRecord {
        ImpressionRecord(
            kind: .assignment, time: Date(timeIntervalSince1970: 1_767_258_000), scene: "user-profile", variant: "visitor", unit: "\(unit)",
            experiment: "friends-layout", arm: "rows")
    }

    @Test func recordingNeverWaitsForTheFileAndTheLinesArriveInOrder() async throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "scenery-impressions-\(UUID().uuidString).fifo").path
        #expect(mkfifo(path, 0o600) == 0)
        defer { unlink(path) }
        // A reader that reads nothing yet: the pipe takes 64 KiB, then a write waits.
        let reader = open(path, O_RDONLY | O_NONBLOCK)
        #expect(reader >= 0)
        defer { close(reader) }
        let sink = try JSONLinesImpressionSink(path: path)
        for unit in 0..<3_000 { sink.record(Self.record(unit)) }  // about 600 KiB: returns at once
        // Now read it all, while the sink's queue writes.
        let collected = Thread.detachNewThreadReturning {
            _ = fcntl(reader, F_SETFL, 0)  // blocking reads from here
            var bytes: [UInt8] = []
            var buffer = [UInt8](repeating: 0, count: 65_536)
            while bytes.filter({ $0 == 0x0A }).count < 3_000 {
                let count = read(reader, &buffer, buffer.count)
                guard count > 0 else { break }
                bytes += buffer[..<count]
            }
            return bytes
        }
        sink.flush()
        let lines = String(decoding: await collected.value, as: UTF8.self).split(separator: "\n")
        #expect(lines.count == 3_000)
        let units = lines.compactMap { try? JSONDecoder().decode(JSONValue.self, from: Data($0.utf8))["unit"]?.stringValue }
        #expect(units == (0..<3_000).map(String.init), "in the order recorded")
    }
}

extension Thread {
    /// Runs `body` on a thread of its own (not the task pool) and hands back its result.
    static func detachNewThreadReturning<Value: Sendable>(_ body: @escaping @Sendable () -> Value) -> Task<Value, Never> {
        Task {
            await withCheckedContinuation { continuation in
                Thread.detachNewThread { continuation.resume(returning: body()) }
            }
        }
    }
}
