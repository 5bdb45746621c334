import Foundation
import ProfileDemo
import ProfileDemoDomain
import ProfileDemoScenes
import ProfileDemoStore
import Scenery

/// What languages and themes cost: loading 1,000 scene files with three message catalogs
/// (each translating every scene) and three themes, against the same scenes alone; and
/// assembling and rendering the profile in Chinese and Arabic from the catalogs, against
/// English (what a per-language copy of the scene cost: a scene without a translation).
enum LanguagesBenchmark {
    static func run(_ options: BenchmarkOptions) async throws -> Table {
        let plain = FileManager.default.temporaryDirectory.appending(path: "scenery-bench-\(UUID().uuidString)")
        let translated = FileManager.default.temporaryDirectory.appending(path: "scenery-bench-\(UUID().uuidString)")
        for directory in [plain, translated] { try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true) }
        defer { for directory in [plain, translated] { try? FileManager.default.removeItem(at: directory) } }
        _ = try LoadingBenchmark.writeScenes(count: 1000, to: plain)
        _ = try LoadingBenchmark.writeScenes(count: 1000, to: translated)
        for language in ["de", "pl", "ar"] {
            let sections = (0..<1000).map { #""scene-\#($0)": { "title": "\#(language) \#($0)" }"# }.joined(separator: ",\n")
            try #"{ "language": "\#(language)", "scenes": {\#n\#(sections)\#n} }"#.write(
                to: translated.appending(path: "\(language).messages.json"), atomically: false, encoding: .utf8)
        }
        for theme in BundledScenes.themes {
            try FileManager.default.copyItem(at: theme, to: translated.appending(path: theme.lastPathComponent))
        }
        var problems = (0, 0)
        var languages = 0
        let loading = Measure.interleaved(
            rounds: options.rounds(9),
            [
                {
                    var registry = SceneRegistry()
                    problems.0 = (try? registry.loadScenes(in: plain))?.count ?? -1
                },
                {
                    var registry = SceneRegistry()
                    problems.1 = (try? registry.loadScenes(in: translated))?.count ?? -1
                    languages = registry.translatedLanguages.count + registry.themes.count
                },
            ])
        precondition(problems == (0, 0) && languages == 6, "the generated scenes, catalogs and themes must validate: \(problems), \(languages)")

        // The profile, assembled and rendered as a page for another viewer, in each language.
        let (store, directory) = try FanOutBenchmark.temporaryStore()
        defer { try? FileManager.default.removeItem(at: directory) }
        let registry = try FanOutBenchmark.registry(ProfileServices(profiles: store, blogs: store, drafts: store, relationships: store, changes: nil))
        let locales = ["en", "zh-Hans", "ar"]
        let rendering = await Measure.interleaved(
            rounds: options.rounds(30),
            locales.map { locale in
                {
                    guard
                        let scene = try? await registry.assemble(
                            "user-profile", for: SceneContext(viewer: "2", arguments: ["user": "1"], locale: locale), host: NullSceneHost())
                    else { preconditionFailure("the profile must assemble in \(locale)") }
                    _ = HTMLRenderer().fragment(await scene.render())
                    await scene.leave()
                }
            })

        var table = Table(
            "Languages and themes: loading 1,000 scene files with 3 catalogs and 3 themes; the profile page in a language",
            header: ["contender", "min", "median", "vs without", "target"])
        table.add("1,000 scenes", Measure.format(loading[0].minimum), Measure.format(loading[0].median), "1×", "")
        let added = loading[1].minimum / loading[0].minimum - 1
        table.add(
            "1,000 scenes, 3 catalogs (every title), 3 themes (contrast checked)", Measure.format(loading[1].minimum),
            Measure.format(loading[1].median), String(format: "+%.1f%% (min)", added * 100), "≤ +20% " + verdict(added <= 0.20))
        for (index, locale) in locales.enumerated() {
            // Noise on this machine is a few percent between the fastest rounds; the medians
            // of a shared VM move far more.
            let ratio = rendering[index].minimum / rendering[0].minimum
            table.add(
                "user-profile assembled and rendered, \(locale)\(index == 0 ? " (no translation)" : " (from its catalog)")",
                Measure.format(rendering[index].minimum), Measure.format(rendering[index].median),
                String(format: "%.3f× (min), %.3f× (median)", ratio, rendering[index].median / rendering[0].median),
                index == 0 ? "" : "≤ 1.05× " + verdict(ratio <= 1.05))
        }
        return table
    }
}
