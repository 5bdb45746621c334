import Foundation
import Testing

/// The budget the CHANGELOG promises and the style asks for: no Swift source file of the
/// package or its examples is over 400 lines. It regressed once unnoticed (a renderer of 451
/// lines); a file over it fails here with what to do.
@Suite struct SourceSizeBudgetTests {
    static let mostLinesPerFile = 400

    @Test func noSourceFileIsOverFourHundredLines() throws {
        let root = DocumentationSampleTests.packageRoot
        let folders = ["Sources", "Plugins", "Examples/Board/Sources", "Examples/RecycleBin/Sources"].map { root.appending(path: $0) }
        var counted = 0
        var over: [String] = []
        for folder in folders {
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            for file in files where file.pathExtension == "swift" && !file.path.contains("/.build/") {
                let lines = try String(contentsOf: file, encoding: .utf8).split(separator: "\n", omittingEmptySubsequences: false).count - 1
                counted += 1
                if lines > Self.mostLinesPerFile {
                    over.append("\(file.path.replacingOccurrences(of: root.path + "/", with: "")): \(lines) lines")
                }
            }
        }
        #expect(counted > 300, "found the sources (\(counted) files)")
        #expect(
            over.isEmpty,
            "\(over.joined(separator: "; ")) — over \(Self.mostLinesPerFile) lines: split the type (a concept of its own, with its own tests), not the file.")
    }
}
