import Foundation

/// A folder of golden files: expected output, kept beside the tests, that a test's output is
/// compared with, line by line.
///
/// With `RECORD_GOLDEN` set in the environment, the output is written as the new golden
/// file instead, to be reviewed in the change like any other.
///
/// ```swift
/// let goldens = GoldenFiles(directory: URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Golden"))
/// if let mismatch = try goldens.mismatch(TextRenderer(width: 72).render(tree), against: "profile.txt") {
///     Issue.record(Comment(rawValue: mismatch))
/// }
/// ```
public struct GoldenFiles: Sendable {
    /// The folder the golden files are in.
    public let directory: URL

    /// The golden files of `directory`.
    public init(directory: URL) {
        self.directory = directory
    }

    /// What differs between `actual` and the golden file `name` (a sentence and a line
    /// diff), or `nil` when they are equal, or when `RECORD_GOLDEN` is set and the file was
    /// written.
    /// - Throws: The file system's error when recording cannot write the file.
    public func mismatch(_ actual: String, against name: String) throws -> String? {
        let file = directory.appending(path: name)
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return nil
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            return "Missing golden file \(name); run the tests with RECORD_GOLDEN=1 to create it."
        }
        guard actual != expected else { return nil }
        return "Output differs from \(name) (RECORD_GOLDEN=1 re-records it):\n\(TextDiff.describe(expected: expected, actual: actual))"
    }
}
