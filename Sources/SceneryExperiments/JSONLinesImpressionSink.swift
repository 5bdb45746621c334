import Foundation
import Scenery

/// Writes each record as one line of JSON to a file (appending) or to standard output: the
/// format `scenery experiments report --log` reads.
///
/// `record(_:)` only encodes the line; the write happens on a serial queue of the sink's,
/// in the order records came, so no scene waits on the disk. Call ``flush()`` before the
/// process ends (the `scenery` commands do) to be sure every line is written.
public final class JSONLinesImpressionSink: ImpressionSink {
    private let output: Locked<(handle: FileHandle, encoder: JSONEncoder)>
    private let writer = DispatchQueue(label: "scenery.impression-log")

    /// Appends to the file at `path`, creating it when it does not exist.
    ///
    /// - Throws: `SceneryError` naming the file when it cannot be created or opened.
    /// Opened for appending (`O_APPEND`), so it may be a pipe or FIFO too (`--impressions
    /// >(gzip > log.gz)`), which cannot seek.
    public init(path: String) throws(SceneryError) {
        let existed = FileManager.default.fileExists(atPath: path)
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            let reason = String(cString: strerror(errno)).lowercased()
            throw SceneryError(
                .invalidArgument,
                existed
                    ? "Cannot open the impression log \(path.quoted) for writing (\(reason)); check its permissions."
                    : "Cannot create the impression log \(path.quoted) (\(reason)); check that its folder exists and can be written.")
        }
        output = Locked((FileHandle(fileDescriptor: descriptor, closeOnDealloc: true), Self.makeEncoder()))
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
            guard var encoded = try? output.encoder.encode(record) else { return }
            encoded.append(0x0A)
            let line = encoded
            let handle = output.handle
            // Queued while the lock is held: lines reach the file in the order recorded.
            // A log that cannot take it (a closed pipe, a full disk) loses the line, never the process.
            writer.async { try? handle.write(contentsOf: line) }
        }
    }

    /// Returns once every record taken so far is written.
    public func flush() {
        writer.sync {}
    }
}
