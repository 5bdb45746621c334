import Foundation

/// The `scenery` command's cold start against a trivial executable that loads Foundation and
/// decodes a small JSON, built the same way: both started as processes, in turn, many rounds.
///
/// Issue 62's goal: `scenery run user-profile` ≤ 1.5× the trivial executable. `scenery
/// --version` is shown as the floor: loading the binary and its libraries and reading the
/// arguments, with none of Scenery's work.
enum ColdStartBenchmark {
    /// A command to time, the build it belongs to, and whether issue 62's goal applies.
    private struct Contender {
        var name: String
        var program: URL
        var arguments: [String]
        var baseline: Int
        var hasGoal: Bool
    }

    static let goal = 1.5

    static func run(_ options: BenchmarkOptions) throws -> Table {
        let folder = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()
        let scenery = folder.appending(path: "scenery")
        let baseline = folder.appending(path: "cold-start-baseline")
        for tool in [scenery, baseline] where !FileManager.default.isExecutableFile(atPath: tool.path) {
            throw ValidationFailure("\(tool.path) is missing: build it first with `swift build -c release`.")
        }
        let staticScenery = options.staticScenery.map { URL(filePath: $0) }
        let staticBaseline = staticScenery?.deletingLastPathComponent().appending(path: "cold-start-baseline")
        for tool in [staticScenery, staticBaseline].compactMap(\.self) where !FileManager.default.isExecutableFile(atPath: tool.path) {
            throw ValidationFailure(
                "\(tool.path) is missing: build both with `swift build -c release --static-swift-stdlib --scratch-path .build-static --product scenery` and `… --product cold-start-baseline`."
            )
        }
        let database = FileManager.default.temporaryDirectory.appending(path: "scenery-bench-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: database) }
        let profile = ["run", "user-profile", "--viewer", "1", "--arg", "user=1", "--database", database.path]
        let shown = "scenery " + profile.prefix(6).joined(separator: " ")

        var contenders = [
            Contender(
                name: "baseline: Foundation + JSONDecoder on a small JSON (default build)", program: baseline, arguments: [], baseline: 0, hasGoal: false),
            Contender(name: "scenery --version (default build)", program: scenery, arguments: ["--version"], baseline: 0, hasGoal: false),
            Contender(name: shown + " (default build)", program: scenery, arguments: profile, baseline: 0, hasGoal: true),
            Contender(name: "scenery validate (default build)", program: scenery, arguments: ["validate"], baseline: 0, hasGoal: false),
        ]
        if let staticScenery, let staticBaseline {
            let first = contenders.count
            contenders += [
                Contender(name: "baseline (--static-swift-stdlib)", program: staticBaseline, arguments: [], baseline: first, hasGoal: false),
                Contender(name: "scenery --version (--static-swift-stdlib)", program: staticScenery, arguments: ["--version"], baseline: first, hasGoal: false),
                Contender(name: shown + " (--static-swift-stdlib)", program: staticScenery, arguments: profile, baseline: first, hasGoal: true),
            ]
        }
        // Each command runs once first: the database is created and seeded, so every measured
        // run finds it warm.
        for contender in contenders where try launch(contender.program, contender.arguments) != 0 {
            throw ValidationFailure("`\(contender.program.path) \(contender.arguments.joined(separator: " "))` failed.")
        }
        let samples = Measure.interleaved(
            rounds: options.rounds(40), warmUp: false, contenders.map { contender in { _ = try? launch(contender.program, contender.arguments) } })
        var table = Table(
            "Cold start of the scenery command (a new process each time)",
            header: ["command", "min", "median", "vs its build's baseline", "goal ≤ \(Measure.ratio(goal))"])
        for (index, contender) in contenders.enumerated() {
            // The median of the ratios of runs made one after the other: a drift of the
            // machine's speed during the rounds touches both sides of a pair alike.
            let ratios = zip(samples[index].seconds, samples[contender.baseline].seconds).map { $0 / $1 }
            let ratio = Samples(seconds: ratios).median
            table.add(
                contender.name, Measure.format(samples[index].minimum), Measure.format(samples[index].median),
                index == contender.baseline ? "1×" : Measure.ratio(ratio), contender.hasGoal ? verdict(ratio <= goal) : "")
        }
        table.notes.append("Output goes to /dev/null; each ratio is the median of the ratios of runs made in turn.")
        table.notes.append(
            "A static build links the Swift runtime and Foundation into the executable (as a Linux command-line tool is often "
                + "distributed) and is compared with the baseline built the same way.")
        return table
    }

    /// Runs a program to its end with output discarded; returns its exit status.
    static func launch(_ program: URL, _ arguments: [String]) throws -> Int32 {
        let process = Process()
        process.executableURL = program
        process.arguments = arguments
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        try process.run()
        process.waitUntilExit()
        return process.terminationStatus
    }
}

/// A benchmark cannot run, and why.
struct ValidationFailure: Error, CustomStringConvertible {
    var description: String
    init(_ description: String) { self.description = description }
}
