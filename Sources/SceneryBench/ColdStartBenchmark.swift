import Foundation

/// The `scenery` command's cold start against a trivial executable that loads Foundation and
/// decodes a small JSON: both started as processes, alternately, many rounds.
enum ColdStartBenchmark {
    static func run(_ options: BenchmarkOptions) throws -> Table {
        let folder = URL(filePath: CommandLine.arguments[0]).deletingLastPathComponent()
        let scenery = folder.appending(path: "scenery"), baseline = folder.appending(path: "cold-start-baseline")
        for tool in [scenery, baseline] where !FileManager.default.isExecutableFile(atPath: tool.path) {
            throw ValidationFailure("\(tool.path) is missing: build it first with `swift build -c release`.")
        }
        let database = FileManager.default.temporaryDirectory.appending(path: "scenery-bench-\(UUID().uuidString).sqlite")
        defer { try? FileManager.default.removeItem(at: database) }
        let profile = ["run", "user-profile", "--viewer", "1", "--arg", "user=1", "--database", database.path]
        let validate = ["validate"]
        // The first run creates and seeds the database: the measured runs find it warm.
        guard try launch(scenery, profile) == 0 else { throw ValidationFailure("`scenery \(profile.joined(separator: " "))` failed.") }
        guard try launch(baseline, []) == 0 else { throw ValidationFailure("cold-start-baseline failed.") }
        let samples = Measure.interleaved(
            rounds: options.rounds(40),
            [
                { _ = try? launch(baseline, []) },
                { _ = try? launch(scenery, profile) },
                { _ = try? launch(scenery, validate) },
            ])
        var table = Table("Cold start of the scenery command (a new process each time)", header: ["command", "min", "median", "vs baseline", "target ≤ 2×"])
        table.add("baseline: Foundation + JSONDecoder on a small JSON", Measure.format(samples[0].minimum), Measure.format(samples[0].median), "1×", "")
        for (index, command) in [(1, "scenery " + profile.prefix(6).joined(separator: " ")), (2, "scenery validate")] {
            let ratio = samples[index].median / samples[0].median
            table.add(command, Measure.format(samples[index].minimum), Measure.format(samples[index].median), Measure.ratio(ratio), index == 1 ? verdict(ratio <= 2) : "")
        }
        table.notes.append("Output goes to /dev/null; the demo database is created before the rounds, so every measured run finds it warm.")
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
