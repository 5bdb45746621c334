import ArgumentParser
import Foundation
import Scenery
import SceneryExperiments

/// `scenery experiments`: what the scene files' experiments recorded.
struct ExperimentsCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "experiments",
        abstract: "Report on the scene files' experiments: who was assigned each arm, who saw it, and whether the split is off.",
        subcommands: [ReportCommand.self])

    /// `scenery experiments report`.
    struct ReportCommand: AsyncParsableCommand {
        static let configuration = CommandConfiguration(
            commandName: "report",
            abstract: "Print each experiment's arms: units assigned and exposed, and a sample-ratio-mismatch check.",
            discussion: """
                Reads what '\(ToolName.current) serve' recorded in the database, or the JSON lines files given with --log \
                (written by 'run', 'interact' or 'serve' with --impressions). A unit counts once per arm, however \
                many pages it opened. Exposed: it saw a module its arm changes (half on screen for a second in a \
                browser). The check is a chi-squared test of the assigned counts against the arms' weights; a p-value \
                under 0.001 is a sample ratio mismatch: something drops or moves people in one arm, and the \
                experiment's results cannot be trusted until it is found. Overridden arms (--arm, preview) are left out.
                """)

        @Option(
            name: .customLong("log"),
            help: ArgumentHelp("A JSON lines file of records (repeat for several); without it, the database's.", valueName: "path"))
        var logs: [String] = []

        @OptionGroup var scenes: SceneOptions

        @OptionGroup var database: DatabaseOptions

        func run() async throws {
            try await reportingFailures {
                let registry = try await scenes.loadRegistry(services: nil)
                let tallies: [ExperimentTally]
                if logs.isEmpty {
                    tallies = try await database.openStore().experimentTallies()
                } else {
                    tallies = ExperimentTally.tallies(of: try logs.flatMap(Self.records(in:)))
                }
                Output.write(Self.report(tallies, declared: Self.declaredExperiments(in: registry)))
            }
        }

        /// Each experiment the scene files declare, with the scenes that run it (the first
        /// one's arms and weights stand for all).
        static func declaredExperiments(in registry: SceneRegistry) -> [(experiment: Experiment, scenes: [String])] {
            var declared: [(experiment: Experiment, scenes: [String])] = []
            for id in registry.sceneIDs {
                for experiment in registry.experiments(of: id) {
                    if let index = declared.firstIndex(where: { $0.experiment.name == experiment.name }) {
                        declared[index].scenes.append(id)
                    } else {
                        declared.append((experiment, [id]))
                    }
                }
            }
            return declared
        }

        /// The records of a JSON lines file; a line that is not a record is an error naming
        /// the file and the line.
        static func records(in path: String) throws -> [ImpressionRecord] {
            guard let data = FileManager.default.contents(atPath: path) else {
                throw CommandFailure("Cannot read the log \(path.quoted); check the path (logs are written with --impressions PATH).", code: .usage)
            }
            let decoder = JSONDecoder()
            decoder.dateDecodingStrategy = .iso8601
            var records: [ImpressionRecord] = []
            for (index, line) in data.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false).enumerated() where !line.isEmpty {
                do {
                    records.append(try decoder.decode(ImpressionRecord.self, from: Data(line)))
                } catch {
                    throw CommandFailure(
                        "\(path):\(index + 1): not an impression record (a JSON object with kind, time, scene and variant, as --impressions writes); fix or remove the line.",
                        code: .sceneryError)
                }
            }
            return records
        }

        /// The report's text.
        static func report(_ tallies: [ExperimentTally], declared: [(experiment: Experiment, scenes: [String])]) -> String {
            var text = ""
            let names = declared.map(\.experiment.name) + tallies.map(\.experiment).filter { name in !declared.contains { $0.experiment.name == name } }
            if names.isEmpty { return "No experiments: no scene file declares one, and nothing was recorded.\n" }
            for name in names {
                let tally = tallies.first { $0.experiment == name } ?? ExperimentTally(experiment: name)
                let entry = declared.first { $0.experiment.name == name }
                // Names come from a table or a log anyone could have written: never their
                // escape sequences on the terminal.
                text +=
                    TerminalText.sanitized(name)
                    + (entry.map { " (\(TerminalText.sanitized($0.scenes.joined(separator: ", "))))" } ?? " (in no scene file now)") + "\n"
                let arms: [(arm: String, weight: Double?)] =
                    entry?.experiment.arms.map { ($0.name, $0.weight) }
                    ?? Set(tally.assigned.keys).union(tally.exposed.keys).sorted().map { ($0, nil) }
                let totalAssigned = tally.assigned.values.reduce(0, +)
                let totalWeight = arms.compactMap(\.weight).reduce(0, +)
                let width = max(3, arms.map { TerminalText.sanitized($0.arm).count }.max() ?? 3)
                text += "  " + "arm".padding(toLength: width, withPad: " ", startingAt: 0) + "  weight  assigned   share  expected  exposed  exposed/assigned\n"
                for (arm, weight) in arms {
                    let assigned = tally.assigned[arm, default: 0]
                    let exposed = tally.exposed[arm, default: 0]
                    let share = totalAssigned > 0 ? percent(Double(assigned) / Double(totalAssigned)) : "–"
                    let expected = weight.map { totalWeight > 0 ? percent($0 / totalWeight) : "–" } ?? "–"
                    let rate = assigned > 0 ? percent(Double(exposed) / Double(assigned)) : "–"
                    text +=
                        "  " + TerminalText.sanitized(arm).padding(toLength: width, withPad: " ", startingAt: 0) + "  " + pad(weight.map(number) ?? "?", 6)
                        + "  "
                        + pad("\(assigned)", 8) + "  " + pad(share, 6) + "  " + pad(expected, 8) + "  " + pad("\(exposed)", 7) + "  " + pad(rate, 16)
                        + "\n"
                }
                if totalAssigned == 0 {
                    text += "  Nothing recorded yet: open pages of \(entry?.scenes.first ?? "its scene") as people the experiment takes in.\n"
                } else if let entry, let check = tally.sampleRatioCheck(weights: entry.experiment.arms.map { ($0.name, $0.weight) }) {
                    let summary =
                        "χ² = \(String(format: "%.2f", check.chiSquared)), \(check.degreesOfFreedom) degree\(check.degreesOfFreedom == 1 ? "" : "s") of freedom, p = \(pValue(check.pValue))"
                    if check.isMismatched {
                        text +=
                            "  warning: sample ratio mismatch (\(summary) < \(number(check.threshold))): the arms did not get the shares their weights promise. Something drops or moves people in one arm (a crash, a filter, lost records); do not trust this experiment's results until you find it.\n"
                    } else {
                        text += "  Sample ratio: no mismatch (\(summary)).\n"
                    }
                } else {
                    text += "  No weights to check the split against: no scene file declares this experiment now.\n"
                }
            }
            return text
        }

        private static func percent(_ value: Double) -> String { String(format: "%.1f%%", value * 100) }
        private static func pad(_ text: String, _ width: Int) -> String { String(repeating: " ", count: max(0, width - text.count)) + text }
        /// A weight or threshold as written: `50`, not `50.0`.
        static func number(_ value: Double) -> String { value == value.rounded() && abs(value) < 1e12 ? "\(Int(value))" : "\(value)" }
        private static func pValue(_ value: Double) -> String { value < 0.0001 ? String(format: "%.1e", value) : String(format: "%.4f", value) }
    }
}
