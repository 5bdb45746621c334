import Foundation
import SceneryTesting
import Testing

/// Compares output with a golden file in `Tests/SceneryTests/Golden/` (``GoldenFiles``).
///
/// Run with `RECORD_GOLDEN=1` to write the current output as the new golden file; a
/// mismatch fails with a line diff.
enum Golden {
    static let files = GoldenFiles(
        directory: URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appending(path: "Golden"))

    static func check(_ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if let mismatch = try files.mismatch(actual, against: name) { Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation) }
    }
}
