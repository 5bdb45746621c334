import Foundation
import SceneryTesting
import Testing

/// Compares output with a golden file in `Tests/SceneryTests/Golden/`.
///
/// Run with `RECORD_GOLDEN=1` to write the current output as the new golden file; a
/// mismatch fails with a line diff.
enum Golden {
    static let directory = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Golden")

    static func check(_ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        let file = directory.appending(path: name)
        if ProcessInfo.processInfo.environment["RECORD_GOLDEN"] != nil {
            try actual.write(to: file, atomically: true, encoding: .utf8)
            return
        }
        guard let expected = try? String(contentsOf: file, encoding: .utf8) else {
            Issue.record("Missing golden file \(name); run the tests with RECORD_GOLDEN=1 to create it.", sourceLocation: sourceLocation)
            return
        }
        #expect(
            actual == expected,
            "Output differs from \(name) (RECORD_GOLDEN=1 re-records it):\n\(TextDiff.describe(expected: expected, actual: actual))",
            sourceLocation: sourceLocation)
    }
}
