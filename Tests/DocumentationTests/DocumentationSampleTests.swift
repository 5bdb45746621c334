import Foundation
import Testing

/// Every Swift sample in the README and the guides (the DocC articles of every catalog
/// under `Sources`, `Scenery.docc` and each product's) is compiled code: each ```swift block must stand, line
/// for line (indentation aside), in a Swift file that a build compiles — this target's
/// `Samples/`, or the example package's sources and tests, which `.ci/run` builds. A sample
/// that drifts from the API then fails here, naming the article and the line, instead of
/// misleading a reader. The samples in `Samples/` also run where they can (their tests).
@Suite struct DocumentationSampleTests {
    /// One ```swift block of a document.
    struct Sample: CustomTestStringConvertible, Sendable {
        var document: String
        var line: Int
        var lines: [String]
        /// The last line above the block that is not blank.
        var label: String
        var testDescription: String { "\(document):\(line)" }
    }

    static let packageRoot = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
    /// Every article of every DocC catalog of the package's targets.
    static let guides: [URL] = {
        let sources = packageRoot.appending(path: "Sources")
        let files = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        return files.filter { $0.pathExtension == "md" && $0.deletingLastPathComponent().pathExtension == "docc" }.sorted { $0.path < $1.path }
    }()

    /// Blocks that are not Swift a target compiles, each with the reason; matched by the
    /// document and the block's first line, so a new block cannot hide among them.
    static let notCompiled: [String: String] = [
        "SceneFiles.md: // Package.swift of your app":
            "a fragment of a package manifest; Tests/SceneFileToolingTests builds a real consumer package with the plugin"
    ]

    /// Guides whose ```swift blocks are whole files of an app the reader makes, each under a
    /// line naming its file (`` `Sources/…/X.swift`: ``): `.ci/follow-guide.py` writes them
    /// into a package made by `scenery new` and builds it, in `.ci/run`.
    static let wholeFileGuides: Set<String> = ["YourOwnApp.md"]

    /// The file a whole-file block names on the line above it, if it names one.
    static func fileName(labelling sample: Sample) -> String? {
        let label = sample.label.trimmingCharacters(in: .whitespaces)
        guard label.hasPrefix("`"), label.hasSuffix("`:"), label.count > 3 else { return nil }
        let path = label.dropFirst().dropLast(2)
        return path.contains("`") ? nil : String(path)
    }

    /// The README and every article, with their ```swift blocks.
    static let samples: [Sample] = {
        let documents = [packageRoot.appending(path: "README.md")] + guides
        var found: [Sample] = []
        for document in documents {
            guard let text = try? String(contentsOf: document, encoding: .utf8) else { continue }
            var current: Sample?
            var label = ""
            for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                if current == nil, line.trimmingCharacters(in: .whitespaces) == "```swift" {
                    current = Sample(document: document.lastPathComponent, line: index + 1, lines: [], label: label)
                } else if let sample = current, line.trimmingCharacters(in: .whitespaces) == "```" {
                    found.append(sample)
                    current = nil
                } else if current != nil {
                    current?.lines.append(String(line))
                } else if !line.trimmingCharacters(in: .whitespaces).isEmpty {
                    label = String(line)
                }
            }
        }
        return found
    }()

    /// The lines of every Swift file that a build compiles and a sample may stand in.
    static let compiledSources: [(file: String, lines: [String])] = {
        let folders = [
            packageRoot.appending(path: "Tests/DocumentationTests/Samples"),
            packageRoot.appending(path: "Examples/RecycleBin/Sources"),
            packageRoot.appending(path: "Examples/RecycleBin/Tests"),
            packageRoot.appending(path: "Examples/Board/Sources"),
            packageRoot.appending(path: "Examples/Board/Tests"),
            packageRoot.appending(path: "Examples/Guestbook/Sources"),
            packageRoot.appending(path: "Examples/Guestbook/Tests"),
        ]
        var sources: [(String, [String])] = []
        for folder in folders {
            let files = FileManager.default.enumerator(at: folder, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
            for file in files where file.pathExtension == "swift" {
                guard let text = try? String(contentsOf: file, encoding: .utf8) else { continue }
                sources.append((file.lastPathComponent, normalized(text.components(separatedBy: "\n"))))
            }
        }
        return sources
    }()

    /// Lines without their indentation, trailing spaces and the spaces that align comments
    /// (runs of spaces count as one), blank lines dropped: the formatter's layout of a line
    /// and the article's may differ in nothing else.
    static func normalized(_ lines: [String]) -> [String] {
        lines.map { $0.split(separator: " ", omittingEmptySubsequences: true).joined(separator: " ") }.filter { !$0.isEmpty }
    }

    @Test func theGuidesHaveSwiftSamples() {
        #expect(Self.samples.count >= 12, "found \(Self.samples.map(\.testDescription))")
        #expect(Self.compiledSources.count >= 5)
    }

    @Test(arguments: samples)
    func everySwiftSampleIsCompiledCode(_ sample: Sample) {
        let wanted = Self.normalized(sample.lines)
        guard let first = wanted.first else {
            Issue.record("\(sample.testDescription): an empty ```swift block; remove it")
            return
        }
        if Self.notCompiled["\(sample.document): \(first)"] != nil { return }
        if Self.wholeFileGuides.contains(sample.document) {
            #expect(
                Self.fileName(labelling: sample) != nil,
                "\(sample.testDescription): a block of a whole-file guide needs the line `PATH`: above it (.ci/follow-guide.py writes it there)")
            return
        }
        let standsSomewhere = Self.compiledSources.contains { source in
            source.lines.indices.contains { start in
                start + wanted.count <= source.lines.count && Array(source.lines[start..<start + wanted.count]) == wanted
            }
        }
        #expect(
            standsSomewhere,
            """
            \(sample.testDescription): this ```swift sample is not in any compiled file. Put it, line for line, in a file of \
            Tests/DocumentationTests/Samples (inside a function where it is statements) and make that compile, or correct \
            the article to match the code that does. It starts: \(first)
            """)
    }

    /// The guide's app is whole: the package, the module, a store, the tool's catalog and a
    /// test, each named once, and `.ci/run` follows the guide.
    @Test func theWholeFileGuideGivesEachFileOnceAndIsFollowedByCI() throws {
        for guide in Self.wholeFileGuides {
            let files = Self.samples.filter { $0.document == guide }.compactMap(Self.fileName(labelling:))
            #expect(files.contains("Package.swift"), "\(guide) gives no Package.swift")
            #expect(files.contains { $0.hasPrefix("Tests/") }, "\(guide) gives no test")
            #expect(Set(files).count == files.count, "\(guide) names a file twice: \(files)")
            #expect(files.allSatisfy { $0 == "Package.swift" || $0.hasPrefix("Sources/") || $0.hasPrefix("Tests/") }, "\(files)")
        }
        let run = try String(contentsOf: Self.packageRoot.appending(path: ".ci/run"), encoding: .utf8)
        #expect(run.contains("python3 .ci/follow-guide.py"))
    }

    @Test func everyExemptBlockStillExists() {
        let firstLines = Set(Self.samples.compactMap { sample in Self.normalized(sample.lines).first.map { "\(sample.document): \($0)" } })
        for key in Self.notCompiled.keys {
            #expect(firstLines.contains(key), "'\(key)' is exempt but no longer in the guides; remove it from notCompiled")
        }
    }
}
