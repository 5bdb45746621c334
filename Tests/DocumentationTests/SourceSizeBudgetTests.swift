import Foundation
import Testing

/// The budget the CHANGELOG promises and the style asks for: no Swift source file of the
/// package or its examples is over 400 lines. It regressed once unnoticed (a renderer of 451
/// lines); a file over it fails here with what to do.
@Suite struct SourceSizeBudgetTests {
    static let mostLinesPerFile = 400

    /// The Swift files under `folders` (paths from the package's root), outside any build
    /// folder: what the budget tests of this target read.
    static func swiftFiles(under folders: [String]) -> [URL] {
        folders.flatMap { folder in
            let files = FileManager.default.enumerator(at: DocumentationSampleTests.packageRoot.appending(path: folder), includingPropertiesForKeys: nil)
            return (files?.compactMap { $0 as? URL } ?? []).filter { $0.pathExtension == "swift" && !$0.path.contains("/.build/") }
        }
    }

    @Test func noSourceFileIsOverFourHundredLines() throws {
        let root = DocumentationSampleTests.packageRoot
        var counted = 0
        var over: [String] = []
        for file in Self.swiftFiles(under: ["Sources", "Plugins", "Examples/Board/Sources", "Examples/RecycleBin/Sources"]) {
            let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count - 1
            counted += 1
            if lines > Self.mostLinesPerFile {
                over.append("\(file.path.replacingOccurrences(of: root.path + "/", with: "")): \(lines) lines")
            }
        }
        #expect(counted > 300, "found the sources (\(counted) files)")
        #expect(
            over.isEmpty,
            "\(over.joined(separator: "; ")) — over \(Self.mostLinesPerFile) lines: split the type (a concept of its own, with its own tests), not the file.")
    }
}
