import Foundation
import Testing

/// Every terminal transcript in the README and in the guides (the DocC articles of every
/// catalog under `Sources`) — `$ swift run scenery …` followed by its output — is
/// run on fresh demo data and must print exactly what is shown, so a reader who copies a
/// command gets the output they were promised, and a copied line greps.
@Suite struct ReadmeTranscriptTests {
    /// One command of a transcript, what it is fed, and what it prints.
    struct Transcript: CustomTestStringConvertible, Sendable {
        var arguments: [String]
        var input: [String]
        var expected: String
        var testDescription: String { "scenery " + arguments.joined(separator: " ") }
    }

    static let readme = CommandRunner.packageRoot.appending(path: "README.md")
    /// The README and every article of every DocC catalog of the package's targets.
    static let documents: [URL] = {
        let sources = CommandRunner.packageRoot.appending(path: "Sources")
        let articles = FileManager.default.enumerator(at: sources, includingPropertiesForKeys: nil)?.compactMap { $0 as? URL } ?? []
        let guides = articles.filter { $0.pathExtension == "md" && $0.deletingLastPathComponent().pathExtension == "docc" }
        return [readme] + guides.sorted { $0.path < $1.path }
    }()

    /// The transcripts of the README's ```text blocks. In an `interact` transcript, what the
    /// person typed follows the `> ` and `[y/N] ` prompts.
    static let transcripts: [Transcript] = {
        let text = documents.compactMap { try? String(contentsOf: $0, encoding: .utf8) }.joined(separator: "\n")
        var found: [Transcript] = []
        for block in text.components(separatedBy: "```text\n").dropFirst() {
            let body = block.components(separatedBy: "\n```")[0]
            var current: Transcript?
            for line in body.split(separator: "\n", omittingEmptySubsequences: false).map(String.init) {
                if let command = line.firstMatch(of: /^\$ swift run (?:-q )?scenery (.*)$/) {
                    if let current { found.append(current) }
                    current = Transcript(arguments: command.1.split(separator: " ").map(String.init), input: [], expected: "")
                    continue
                }
                guard current != nil else { continue }
                current?.expected += line + "\n"
                for prompt in ["> ", "[y/N] "] {
                    if let range = line.range(of: prompt), line.hasPrefix("> ") || prompt == "[y/N] " {
                        current?.input.append(String(line[range.upperBound...]))
                        break
                    }
                }
            }
            if let current { found.append(current) }
        }
        return found.map { transcript in
            var trimmed = transcript
            while trimmed.expected.hasSuffix("\n\n") { trimmed.expected.removeLast() }
            return trimmed
        }
    }()

    @Test func theReadmeAndTheGuidesHaveTranscripts() throws {
        #expect(Self.documents.count >= 10, "the README and the guides")
        let readme = try String(contentsOf: Self.readme, encoding: .utf8)
        #expect(readme.contains("$ swift run scenery run "), "the README shows a transcript too")
        #expect(Self.transcripts.count >= 6)
        #expect(Self.transcripts.contains { $0.arguments.first == "interact" })
    }

    @Test(arguments: transcripts)
    func printsWhatTheReadmeShows(_ transcript: Transcript) async throws {
        let cli = try CommandRunner()
        defer { cli.cleanUp() }
        let input = transcript.input.map { $0 + "\n" }.joined()
        let result = try await cli.run(transcript.arguments, input: input)
        // What a person sees: the output, with their answers after each prompt, then errors.
        var seen = ""
        var answers = transcript.input.makeIterator()
        for (index, line) in result.output.components(separatedBy: "\n").enumerated() {
            if index > 0 { seen += "\n" }
            var rest = Substring(line)
            while let prompt = [rest.hasPrefix("> ") ? rest.range(of: "> ") : nil, rest.range(of: "[y/N] ")].compactMap({ $0 }).min(by: {
                $0.lowerBound < $1.lowerBound
            }) {
                seen += rest[..<prompt.upperBound] + (answers.next() ?? "") + "\n"
                rest = rest[prompt.upperBound...]
            }
            seen += rest
        }
        seen += result.error
        while seen.hasSuffix("\n\n") { seen.removeLast() }
        #expect(seen == transcript.expected, "scenery \(transcript.arguments.joined(separator: " "))")
    }
}
