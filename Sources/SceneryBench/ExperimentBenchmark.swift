import Foundation
import ProfileDemo
import ProfileDemoDomain
import ProfileDemoStore
import Scenery
import SceneryExperiments

/// Experiments: what assignment adds to assembling a scene, what one visibility report
/// costs, the memory an experiment and its impression bookkeeping add to an idle page, and
/// the sample-ratio check on simulated runs of 10,000 viewers.
enum ExperimentBenchmark {
    static func run(_ options: BenchmarkOptions) async throws -> Table {
        var table = Table("Experiments: assignment, impressions, memory, sample ratio", header: ["measure", "without", "with", "extra"])
        let (store, directory) = try FanOutBenchmark.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let services = ProfileServices(profiles: store, blogs: store, drafts: store, relationships: store, changes: nil)
        let withExperiment = try FanOutBenchmark.registry(services)
        let without = try registryWithoutExperiments(services)

        // Assembly: instantiating the profile for a visitor (who is assigned an arm), 200 at a time.
        let context = SceneContext(viewer: "2", arguments: ["user": "1"])
        let batch = 200
        let assembly = Measure.interleaved(
            rounds: options.rounds(15),
            [
                { for _ in 0..<batch { _ = try? without.instantiate("user-profile", for: context, host: NullSceneHost()) } },
                { for _ in 0..<batch { _ = try? withExperiment.instantiate("user-profile", for: context, host: NullSceneHost()) } },
            ])
        let plain = assembly[0].median / Double(batch)
        let assigned = assembly[1].median / Double(batch)
        table.add("assembling the profile (instantiate, median)", micro(plain), micro(assigned), micro(assigned - plain))

        // A visibility report: a module that comes and goes (the timing path), 10,000 reports.
        var registry = withExperiment
        registry.impressionSink = CountingSink()
        let scene = try await registry.assemble("user-profile", for: context, host: NullSceneHost())
        let start = ContinuousClock.now
        let reports = 10_000
        let timing = await Measure.repeated(rounds: options.rounds(9)) {
            for index in 0..<reports {
                _ = try? await scene.reportVisibility(of: "friends", fraction: index % 2 == 0 ? 1 : 0, at: start + .milliseconds(index))
            }
        }
        table.add("one visibility report (median of \(reports.formatted()))", "–", micro(timing.median / Double(reports)), "")

        // Memory per idle page, each in a fresh process.
        let memory = try ["plain", "experiment", "seen"].map { try probeInFreshProcess($0, pages: 1_000) }
        table.add("idle profile page at 1,000 pages (RSS per page)", memory[0], memory[1], "")
        table.add("… after every shown module was seen", memory[0], memory[2], "")

        // The sample-ratio check on simulated runs.
        for (label, weights) in [("50/50 split of 10,000 viewers", (50.0, 50.0)), ("52/48 split declared 50/50", (52.0, 48.0))] {
            let experiment = Experiment(name: "friends-layout", arms: [.init(name: "a", weight: weights.0), .init(name: "b", weight: weights.1)])
            var counts = [0, 0]
            for viewer in 0..<10_000 { counts[experiment.arm(for: "\(viewer)").name == "a" ? 0 : 1] += 1 }
            let check = SampleRatioCheck(counts: counts, weights: [50, 50])
            table.add(
                label, "\(counts[0]) / \(counts[1])", String(format: "χ² %.2f, p %.2g", check.chiSquared, check.pValue),
                check.isMismatched ? "mismatch (warns)" : "no mismatch")
        }
        table.notes.append(
            "Assembly: SceneRegistry.instantiate of the bundled profile for Bob on Alice's profile (a visitor, so friends-layout assigns an arm and "
                + "works out which modules its arms change), against the same scene file with its experiments removed; \(batch) per sample, interleaved.")
        table.notes.append(
            "A report: SceneInstance.reportVisibility alternating visible and hidden on one module (timing kept, never counted), a given instant each.")
        table.notes.append(
            "Memory: RSS growth per scene after assembling, appearing and taking a baseline of 1,000 profile scenes in a fresh process "
                + "(viewers 3, 5, 6, 7 and signed out in turn); 'seen' also reports info, friends and blogs visible and counts them.")
        return table
    }

    static func micro(_ seconds: Double) -> String { String(format: "%.2f µs", seconds * 1e6) }

    /// The bundled scenes, with the profile's experiments taken out.
    static func registryWithoutExperiments(_ services: ProfileServices) throws -> SceneRegistry {
        var registry = try FanOutBenchmark.registry(services)
        guard let source = registry.source(of: "user-profile"),
            var object = try JSONSerialization.jsonObject(with: Data(source.utf8)) as? [String: Any]
        else { return registry }
        object["experiments"] = nil
        let text = String(decoding: try JSONSerialization.data(withJSONObject: object), as: UTF8.self)
        registry.addScenes(sources: [(id: "user-profile", source: text, file: "user-profile.json")])
        return registry
    }

    static func probeInFreshProcess(_ mode: String, pages: Int) throws -> String {
        try Measure.inFreshProcess(["--experiment-memory-probe", "\(mode):\(pages)"]) + " KiB"
    }

    /// One measurement in this (fresh) process: prints the resident memory per page, KiB.
    static func probe(_ argument: String) async {
        let parts = argument.split(separator: ":")
        guard parts.count == 2, let count = Int(parts[1]), let (store, directory) = try? FanOutBenchmark.temporaryStore() else { return }
        defer { try? FileManager.default.removeItem(at: directory) }
        let services = ProfileServices(profiles: store, blogs: store, drafts: store, relationships: store, changes: store)
        guard var registry = try? (parts[0] == "plain" ? registryWithoutExperiments(services) : FanOutBenchmark.registry(services)) else { return }
        registry.impressionSink = CountingSink()
        registry.impressionRule = ImpressionRule(minimumDuration: .zero)
        let viewers: [String?] = ["3", "5", "6", "7", nil]
        var scenes: [SceneInstance] = []
        scenes.reserveCapacity(count + 1)
        var baseline = 0.0
        for index in 0...count {
            guard
                let scene = try? await registry.assemble(
                    "user-profile", for: SceneContext(viewer: viewers[index % viewers.count], arguments: ["user": "1"]), host: NullSceneHost())
            else { return }
            await scene.appear()
            _ = await scene.takeBaseline()
            if parts[0] == "seen" {
                for module: NodeID in ["info", "friends", "blogs"] { _ = try? await scene.reportVisibility(of: module, fraction: 1, at: .now) }
            }
            scenes.append(scene)
            if index == 0 { baseline = Measure.residentMemoryKiB }
        }
        print(String(format: "%.1f", (Measure.residentMemoryKiB - baseline) / Double(count)))
        withExtendedLifetime(scenes) {}
    }
}

/// A sink that only counts, so the benchmark measures the bookkeeping, not a log.
final class CountingSink: ImpressionSink {
    private let count = Locked(0)

    func record(_ record: ImpressionRecord) {
        count.withLock { $0 += 1 }
    }
}
