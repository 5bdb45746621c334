import Foundation

/// The `scenery` command's cold start against a trivial executable that loads Foundation and
/// decodes a small JSON: both started as processes, alternately, many rounds.
enum ColdStartBenchmark {
    static func run(_ options: BenchmarkOptions) throws -> Table {
        let folder = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()
        let scenery = folder.appending(path: "scenery")
        let baseline = folder.appending(path: "cold-start-baseline")
        for tool in [scenery, baseline] where !FileManager.default.isExecutableFile(atPath: tool.path) {
            throw ValidationFailure("\(tool.path) is missing: build it first with `swift build -c release`.")
        }
        let staticScenery = options.staticScenery.map { URL(filePath: $0) }
        if let staticScenery, !FileManager.default.isExecutableFile(atPath: staticScenery.path) {
            throw ValidationFailure(
                "\(staticScenery.path) is missing: build it with `swift build -c release --static-swift-stdlib --scratch-path .build-static --product scenery`."
            )
        }
        let database = FileManager.default.temporaryDirectory.appending(path: "scenery-bench-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: database) }
        let profile = ["run", "user-profile", "--viewer", "1", "--arg", "user=1", "--database", database.path]
        let validate = ["validate"]
        // The first run creates and seeds the database: the measured runs find it warm.
        for tool in [scenery] + (staticScenery.map { [$0] } ?? []) where try launch(tool, profile) != 0 {
            throw ValidationFailure("`\(tool.path) \(profile.joined(separator: " "))` failed.")
        }
        guard try launch(scenery, profile) == 0 else { throw ValidationFailure("`scenery \(profile.joined(separator: " "))` failed.") }
        guard try launch(baseline, []) == 0 else { throw ValidationFailure("cold-start-baseline failed.") }
        var contenders: [(name: String, run: () -> Void, target: Bool)] = [
            ("baseline: Foundation + JSONDecoder on a small JSON (default build)", { _ = try? launch(baseline, []) }, false),
            ("scenery " + profile.prefix(6).joined(separator: " ") + " (default build)", { _ = try? launch(scenery, profile) }, staticScenery == nil),
            ("scenery validate (default build)", { _ = try? launch(scenery, validate) }, false),
        ]
        if let staticScenery {
            contenders.append(
                ("scenery " + profile.prefix(6).joined(separator: " ") + " (--static-swift-stdlib)", { _ = try? launch(staticScenery, profile) }, true))
            contenders.append(("scenery validate (--static-swift-stdlib)", { _ = try? launch(staticScenery, validate) }, false))
        }
        let samples = Measure.interleaved(rounds: options.rounds(40), contenders.map(\.run))
        var table = Table("Cold start of the scenery command (a new process each time)", header: ["command", "min", "median", "vs baseline", "target ≤ 2×"])
        for (index, contender) in contenders.enumerated() {
            let ratio = samples[index].median / samples[0].median
            table.add(
                contender.name, Measure.format(samples[index].minimum), Measure.format(samples[index].median), index == 0 ? "1×" : Measure.ratio(ratio),
                contender.target ? verdict(ratio <= 2) : "")
        }
        table.notes.append("Output goes to /dev/null; the demo database is created before the rounds, so every measured run finds it warm.")
        table.notes.append(
            "The shipped build links the Swift runtime and Foundation statically (--static-swift-stdlib), as a Linux command-line tool is "
                + "distributed; the target is checked on it. The default build spends the difference loading shared libraries.")
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
