import Foundation
import Scenery
import Testing

/// The dependency line on Scenery the guides, the README and the examples show names this version.
@Suite struct DependencyVersionTests {
    @Test func everyDocumentedDependencyLineNamesThisVersion() throws {
        let root = DocumentationSampleTests.packageRoot
        let documents =
            [
                root.appending(path: "README.md"), root.appending(path: "Examples/RecycleBin/Package.swift"),
                root.appending(path: "Examples/RecycleBin/README.md"), root.appending(path: "Examples/Board/Package.swift"),
            ]
            + DocumentationSampleTests.guides
        var found = 0
        for document in documents {
            guard let text = try? String(contentsOf: document, encoding: .utf8) else { continue }
            for match in text.matches(of: /\.package\(url: "[^"]*Scenery[^"]*", from: "([0-9.]+)"\)/) {
                found += 1
                #expect(String(match.output.1) == sceneryVersion, "\(document.lastPathComponent): \(match.output.0)")
            }
        }
        #expect(found > 0, "no dependency line found to check")
    }
}
