import ArgumentParser
import Foundation

/// `scenery-bench`: the figures of BENCHMARKS.md, each beside what it is compared against.
///
/// Every benchmark runs its contenders interleaved in this one process (A, B, A, B, …),
/// several rounds each after a warm-up, and prints the minimum and the median with the load
/// average it ran under. Timings belong here, never in the unit tests.
@main
struct SceneryBench: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenery-bench",
        abstract: "Measure Scenery's costs side by side with what each is compared against.",
        discussion: """
            Build and run in release mode:
              swift build -c release
              .build/release/scenery-bench                 # all, about a minute
              .build/release/scenery-bench update loading  # two of them

            Benchmarks:
            \(Benchmark.allCases.map { "  \($0.rawValue.padding(toLength: 12, withPad: " ", startingAt: 0))\($0.summary)" }.joined(separator: "\n"))

            Run on an idle machine: on 2 cores anything else running shows in the numbers.
            The load average is printed before each benchmark.
            """)

    @Argument(help: "The benchmarks to run (default: all). See the list above.")
    var benchmarks: [Benchmark] = []

    @Option(help: "Scale the number of rounds each contender runs (at least 1).")
    var rounds: Int = 1

    @Flag(help: "Also time the standard library's difference(from:) on 100,000 rows (minutes).")
    var full = false

    @Option(help: "A scenery built with --static-swift-stdlib, for cold-start (default: .build-static/release/scenery if it exists).")
    var staticScenery: String?

    @Option(name: .customLong("memory-probe"), help: ArgumentHelp(visibility: .private))
    var memoryProbe: String?

    @Option(name: .customLong("live-memory-probe"), help: ArgumentHelp(visibility: .private))
    var liveMemoryProbe: String?

    @Option(name: .customLong("experiment-memory-probe"), help: ArgumentHelp(visibility: .private))
    var experimentMemoryProbe: String?

    @Option(name: .customLong("form-memory-probe"), help: ArgumentHelp(visibility: .private))
    var formMemoryProbe: String?

    mutating func validate() throws {
        guard rounds >= 1 else { throw ValidationError("--rounds must be at least 1.") }
    }

    func run() async throws {
        if let memoryProbe {
            await MemoryBenchmark.probe(memoryProbe)
            return
        }
        if let liveMemoryProbe {
            await FanOutBenchmark.probe(liveMemoryProbe)
            return
        }
        if let experimentMemoryProbe {
            await ExperimentBenchmark.probe(experimentMemoryProbe)
            return
        }
        if let formMemoryProbe {
            await FormBenchmark.probe(formMemoryProbe)
            return
        }
        let selected = benchmarks.isEmpty ? Benchmark.allCases : benchmarks
        print("# Scenery benchmarks\n")
        print("Machine: \(Machine.description)")
        print("Build: release. Contenders interleaved in one process; min and median of the rounds shown.\n")
        let defaultStatic = ".build-static/release/scenery"
        let staticPath = staticScenery ?? (FileManager.default.isExecutableFile(atPath: defaultStatic) ? defaultStatic : nil)
        let options = BenchmarkOptions(roundScale: rounds, full: full, staticScenery: staticPath)
        for benchmark in selected {
            let load = Machine.loadAverage
            var table = try await benchmark.run(options)
            table.notes.append("Load average before: \(load); after: \(Machine.loadAverage).")
            print(table.render())
            print("")
        }
    }
}

/// Settings every benchmark reads.
struct BenchmarkOptions {
    var roundScale: Int
    var full: Bool
    var staticScenery: String?

    func rounds(_ base: Int) -> Int { base * roundScale }
}

/// The benchmarks, by the name the command line takes.
enum Benchmark: String, CaseIterable, ExpressibleByArgument {
    case diff, duplicates, update, assembly, loading, rendering
    case coldStart = "cold-start"
    case memory, events, experiments
    case fanOut = "fan-out"
    case forms, languages, click, inspect

    var summary: String {
        switch self {
        case .diff: "ListDiff against difference(from:), 1k-100k rows"
        case .duplicates: "ListDiff with 1% duplicate ids (target: 1.5x unique)"
        case .update: "one-row change in a long list (target: 30 us at 100k)"
        case .assembly: "ready time vs slowest module (target: < 1.1x)"
        case .loading: "loading 1,000 scene files (target: 150 ms)"
        case .rendering: "text, JSON and HTML of 10,000 rows"
        case .coldStart: "scenery vs a trivial executable (target: 2x)"
        case .memory: "peak memory of 100,000 rows, windowed and whole"
        case .events: "typed event payloads against dictionaries"
        case .experiments: "assignment per assembly, a visibility report, memory per page, the sample-ratio check"
        case .fanOut: "one like reaching 100 and 1,000 live scenes; idle memory with and without subscriptions"
        case .forms: "memory per idle page with a form (target: 2 KiB more), bytes per change event and submit"
        case .languages: "loading 1,000 scenes with 3 catalogs and 3 themes (target: +20%); the profile in a language"
        case .click: "a like click on a 60-row list: time and allocations per click"
        case .inspect: "resolving a part of a page to its scene file line (the inspector)"
        }
    }

    func run(_ options: BenchmarkOptions) async throws -> Table {
        switch self {
        case .diff: DiffBenchmark.run(options)
        case .duplicates: DiffBenchmark.runDuplicates(options)
        case .update: try await UpdateBenchmark.run(options)
        case .assembly: try await AssemblyBenchmark.run(options)
        case .loading: try LoadingBenchmark.run(options)
        case .rendering: try await RenderingBenchmark.run(options)
        case .coldStart: try ColdStartBenchmark.run(options)
        case .memory: try MemoryBenchmark.run(options)
        case .events: EventBenchmark.run(options)
        case .experiments: try await ExperimentBenchmark.run(options)
        case .fanOut: try await FanOutBenchmark.run(options)
        case .forms: try FormBenchmark.run(options)
        case .languages: try await LanguagesBenchmark.run(options)
        case .click: try await ClickBenchmark.run(options)
        case .inspect: try await InspectBenchmark.run(options)
        }
    }
}
