import Foundation
import Scenery
import Testing

/// The bundled experiment from the command line: `run --arm`, `--impressions`, and
/// `experiments report` with its sample-ratio check.
@Suite struct ExperimentCommandTests {
    let cli: CommandRunner

    init() throws { cli = try CommandRunner() }

    @Test func armChoosesTheFriendsLayoutForAVisitor() async throws {
        defer { cli.cleanUp() }
        let carousel = try await cli.run(["run", "user-profile", "--viewer", "2", "--arg", "user=1", "--arm", "friends-layout=carousel"])
        #expect(carousel.status == 0, "\(carousel.error)")
        #expect(carousel.output.contains("⇆ 3 items, side by side"))
        let compact = try await cli.run(["run", "user-profile", "--viewer", "2", "--arg", "user=1", "--arm", "friends-layout=compact"])
        #expect(compact.status == 0, "\(compact.error)")
        #expect(!compact.output.contains("side by side"))
        #expect(compact.output.contains("• [image: Carol Mint]  Carol Mint"))
        let owner = try await cli.run(["run", "user-profile", "--viewer", "1", "--arg", "user=1", "--arm", "friends-layout=compact"])
        #expect(owner.output.contains("side by side"), "the owner is not in the experiment, so an override does not apply")
    }

    @Test func aMistypedExperimentOrArmIsAUsageError() async throws {
        defer { cli.cleanUp() }
        let experiment = try await cli.run(["run", "user-profile", "--viewer", "2", "--arg", "user=1", "--arm", "friends-layot=compact"])
        #expect(experiment.status == 64)
        #expect(
            experiment.error.contains(
                "--arm names the experiment 'friends-layot', which 'user-profile' does not run (did you mean 'friends-layout'?); its experiments: friends-layout."
            ))
        let arm = try await cli.run(["run", "user-profile", "--viewer", "2", "--arg", "user=1", "--arm", "friends-layout=compat"])
        #expect(arm.status != 0)
        #expect(arm.error.contains("has no arm 'compat'; did you mean 'compact'?"))
        let form = try await cli.run(["run", "user-profile", "--arm", "friends-layout"])
        #expect(form.status == 64)
        #expect(form.error.contains("must have the form experiment=arm"))
    }

    @Test func impressionsOfAPrintedPageReachTheReport() async throws {
        defer { cli.cleanUp() }
        let log = cli.directory.appending(path: "impressions.jsonl").path
        for viewer in ["2", "3", "4", "5", "6"] {
            let result = try await cli.run(["run", "user-profile", "--viewer", viewer, "--arg", "user=1", "--impressions", log])
            #expect(result.status == 0, "\(result.error)")
        }
        let owner = try await cli.run(["run", "user-profile", "--viewer", "1", "--arg", "user=1", "--impressions", log])
        #expect(owner.status == 0)
        let records = try String(contentsOfFile: log, encoding: .utf8).split(separator: "\n")
        #expect(records.filter { $0.contains(#""kind":"assignment""#) }.count == 5, "Alice views her own profile: not in the experiment")
        #expect(records.filter { $0.contains(#""kind":"exposure""#) }.count == 5)
        #expect(records.filter { $0.contains(#""kind":"impression""#) }.count == 6 * 3, "three modules each, the drafts tab not shown")
        let report = try await cli.run(["experiments", "report", "--log", log])
        #expect(report.status == 0, "\(report.error)")
        #expect(report.output.contains("friends-layout (user-profile)"))
        let rows = report.output.split(separator: "\n").filter { $0.hasPrefix("  carousel") || $0.hasPrefix("  compact") }
        let assigned = rows.compactMap { $0.split(separator: " ", omittingEmptySubsequences: true).dropFirst(2).first.flatMap { Int($0) } }
        #expect(assigned.reduce(0, +) == 5, "\(report.output)")
    }

    @Test func impressionsGoToStandardOutputAmongTheStreamWithADash() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["run", "user-profile", "--viewer", "2", "--arg", "user=1", "--impressions", "-"])
        #expect(result.status == 0, "\(result.error)")
        let records = result.output.split(separator: "\n").filter { $0.hasPrefix(#"{"arm":"#) || $0.hasPrefix(#"{"kind":"#) }
        #expect(records.contains { $0.contains(#""kind":"assignment""#) && $0.contains(#""unit":"2""#) })
        #expect(records.contains { $0.contains(#""kind":"exposure""#) && $0.contains(#""module":"friends""#) })
        #expect(result.output.contains("┌─ info · UserInfoModule"), "the page is printed too")
    }

    @Test func theReportWarnsOfABrokenSplitAndNotOfAnEvenOne() async throws {
        defer { cli.cleanUp() }
        func log(carousel: Int, compact: Int) throws -> String {
            var lines = ""
            for unit in 0..<(carousel + compact) {
                let arm = unit < carousel ? "carousel" : "compact"
                lines +=
                    #"{"arm":"\#(arm)","experiment":"friends-layout","kind":"assignment","scene":"user-profile","time":"2026-11-24T21:40:00Z","unit":"\#(unit)","variant":"default"}"#
                    + "\n"
            }
            let path = cli.directory.appending(path: "split-\(carousel).jsonl").path
            try Data(lines.utf8).write(to: URL(filePath: path))
            return path
        }
        let even = try await cli.run(["experiments", "report", "--log", try log(carousel: 5_030, compact: 4_970)])
        #expect(even.status == 0, "\(even.error)")
        #expect(even.output.contains("Sample ratio: no mismatch (χ² = 0.36, 1 degree of freedom, p = 0.5485)."), "\(even.output)")
        let broken = try await cli.run(["experiments", "report", "--log", try log(carousel: 5_200, compact: 4_800)])
        #expect(broken.output.contains("warning: sample ratio mismatch (χ² = 16.00, 1 degree of freedom, p = 6.3e-05 < 0.001)"), "\(broken.output)")
    }

    @Test func experimentAndArmNamesFromALogReachTheTerminalWithoutTheirEscapeSequences() async throws {
        defer { cli.cleanUp() }
        let experiment = #"evil\u001b]0;retitled\u0007\u001b[2J"#
        let arm = #"arm\u001b[31m\u009b1m"#
        let line =
            #"{"arm":"\#(arm)","experiment":"\#(experiment)","kind":"assignment","scene":"user-profile","time":"2026-11-24T21:40:00Z","unit":"1","variant":"default"}"#
        let path = cli.directory.appending(path: "escapes.jsonl")
        try Data((line + "\n").utf8).write(to: path)
        let report = try await cli.run(["experiments", "report", "--log", path.path])
        #expect(report.status == 0, "\(report.error)")
        #expect(report.output.contains("evil"), "\(report.output)")
        #expect(!report.output.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 || $0.value == 0x9B }, "\(report.output.debugDescription)")
    }

    @Test func aLogLineThatIsNotARecordIsAnErrorAtItsLine() async throws {
        defer { cli.cleanUp() }
        let path = cli.directory.appending(path: "bad.jsonl").path
        try Data(#"{"kind":"assignment","time":"2026-11-24T21:40:00Z","scene":"s","variant":"v"}"#.utf8 + Array("\n{oops\n".utf8)).write(
            to: URL(filePath: path))
        let result = try await cli.run(["experiments", "report", "--log", path])
        #expect(result.status == 2)
        #expect(result.error.contains("bad.jsonl:2: not an impression record"))
        let missing = try await cli.run(["experiments", "report", "--log", cli.directory.appending(path: "none.jsonl").path])
        #expect(missing.status == 64)
        #expect(missing.error.contains("Cannot read the log"))
    }
}
