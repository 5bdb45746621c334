import Foundation

/// Where a scene's assignments, impressions and exposures go: a file, a table, a test's
/// array. Set one on the registry (``SceneRegistry/impressionSink``); every scene it
/// assembles records to it.
///
/// `record(_:)` is called on the scene's executor and must not block: buffer, or hand the
/// write to your own queue.
///
/// ```swift
/// registry.impressionSink = try JSONLinesImpressionSink(path: "impressions.jsonl")
/// ```
public protocol ImpressionSink: Sendable {
    /// Takes one record.
    func record(_ record: ImpressionRecord)
}

/// Writes each record as one line of JSON to a file (appending) or to standard output: the
/// format `scenery experiments report --log` reads.
public final class JSONLinesImpressionSink: ImpressionSink {
    private let output: Locked<(handle: FileHandle, encoder: JSONEncoder)>

    /// Appends to the file at `path`, creating it when it does not exist.
    ///
    /// - Throws: ``SceneryError`` naming the file when it cannot be created or opened.
    public init(path: String) throws(SceneryError) {
        if !FileManager.default.fileExists(atPath: path) {
            guard FileManager.default.createFile(atPath: path, contents: nil) else {
                throw SceneryError(.invalidArgument, "Cannot create the impression log \(path.quoted); check that its folder exists and can be written.")
            }
        }
        guard let handle = FileHandle(forWritingAtPath: path) else {
            throw SceneryError(.invalidArgument, "Cannot open the impression log \(path.quoted) for writing; check its permissions.")
        }
        handle.seekToEndOfFile()
        output = Locked((handle, Self.makeEncoder()))
    }

    /// Writes to standard output.
    public init(standardOutput: Void = ()) {
        output = Locked((FileHandle.standardOutput, Self.makeEncoder()))
    }

    private static func makeEncoder() -> JSONEncoder {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return encoder
    }

    public func record(_ record: ImpressionRecord) {
        output.withLock { output in
            guard var line = try? output.encoder.encode(record) else { return }
            line.append(0x0A)
            output.handle.write(line)
        }
    }
}
