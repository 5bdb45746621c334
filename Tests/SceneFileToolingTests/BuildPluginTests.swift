import Foundation
import Testing

/// A package that depends on Scenery by path and applies the build plugin to a target with
/// a `Scenes` folder resource: a broken scene fails its build with the right diagnostic, a
/// correct one builds and the generated `BundledScene` lists the scenes. Its target depends
/// on the `ProfileDemoScenes` product (the demo's scene files, not its code), and one of its
/// scenes extends Scenery's bundled `user-profile` with a module type of its own (declared in
/// its manifest), as the guides recommend. A message catalog and a theme beside its scenes
/// are checked by the same build.
@Suite(.serialized) struct BuildPluginTests {
    @Test func aBrokenSceneFailsTheBuildAndACorrectOnePasses() async throws {
        let work = FileManager.default.temporaryDirectory.appending(path: "scenery-plugin-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let package = work.appending(path: "PluginConsumer")
        try FileManager.default.createDirectory(at: work, withIntermediateDirectories: true)
        try FileManager.default.copyItem(at: Paths.fixtures.appending(path: "PluginConsumer"), to: package)
        let scenery = Paths.packageRoot
        try Data(
            """
            // swift-tools-version: 6.1
            import PackageDescription

            let package = Package(
                name: "PluginConsumer",
                platforms: [.macOS(.v15)],
                dependencies: [.package(path: "\(scenery.path)")],
                targets: [
                    .executableTarget(
                        name: "Consumer",
                        dependencies: [
                            .product(name: "Scenery", package: "\(scenery.lastPathComponent)"),
                            .product(name: "ProfileDemoScenes", package: "\(scenery.lastPathComponent)"),
                        ],
                        resources: [.copy("Scenes")],
                        plugins: [.plugin(name: "SceneryValidationPlugin", package: "\(scenery.lastPathComponent)")])
                ]
            )

            """.utf8
        ).write(to: package.appending(path: "Package.swift"))
        let buildFolder = Self.sharedBuildFolder ?? work.appending(path: "build")
        let scratch = ["--scratch-path", buildFolder.path]
        // 1. Four broken files at once, one build: the validator reports every problem of
        // every file, each at its file:line:column (a build each took four builds' time).
        // The target's own scene files (its Scenes folder resource), not the package root's.
        // A scene with a module type nowhere declared:
        let scenes = package.appending(path: "Sources/Consumer/Scenes")
        let broken = scenes.appending(path: "broken.json")
        try Data(
            """
            {
              "modules": [
                { "id": "greeting", "type": "GreetingModul" }
              ]
            }
            """.utf8
        ).write(to: broken)
        // A scene that extends one nowhere to be found: named, with where it was looked for.
        let lost = scenes.appending(path: "lost.json")
        try Data(#"{ "extends": "user-profil" }"#.utf8).write(to: lost)
        // A message catalog whose Polish plural lacks the cases Polish needs: at the message.
        let catalog = scenes.appending(path: "pl.messages.json")
        try Data(
            """
            { "language": "pl",
              "modules": { "BlogModule": { "likesFormat": "{count, plural, one {# polubienie} other {# polubień}}" } } }
            """.utf8
        ).write(to: catalog)
        // A theme whose muted text is too pale for the page: at the token, naming the pair
        // and the ratio WCAG asks.
        let theme = scenes.appending(path: "pale.tokens.json")
        let light = try String(contentsOf: scenery.appending(path: "Scenes/light.tokens.json"), encoding: .utf8)
        let paleLines = light.split(separator: "\n", omittingEmptySubsequences: false).map { line in
            line.contains("\"text-muted\": { \"$value\": \"{palette.") ? ##"    "text-muted": { "$value": "#aaaaaa" },"## : String(line)
        }
        try Data(paleLines.joined(separator: "\n").utf8).write(to: theme)
        let mutedLine = try #require(paleLines.firstIndex { $0.contains("#aaaaaa") }) + 1
        let failing = try await swiftBuild(scratch, in: package)
        #expect(failing.status != 0, "the build must fail:\n\(failing.output.suffix(2000))")
        for expected in [
            "\(broken.path):3:33: error: Unknown module type 'GreetingModul'; did you mean 'GreetingModule'?",
            "\(lost.path):1:14: error: The scene 'lost' extends 'user-profil', which is not a scene (did you mean 'user-profile'?)",
            "Searched this target, ProfileDemoScenes (package ",
            "\(catalog.path):2:47: error: BlogModule's 'likesFormat' has a plural of {count} without few, many, which pl needs (CLDR plural rules); add few {…} many {…}.",
            "\(theme.path):\(mutedLine):31: error: In the theme 'pale', 'color.text-muted' on 'color.surface' (notes on the page, normal) has a contrast of 2.2",
        ] {
            #expect(failing.output.contains(expected), "missing: \(expected)\n\(failing.output.suffix(4000))")
        }
        for file in [broken, lost, catalog, theme] { try FileManager.default.removeItem(at: file) }
        // 2. Fixed: it builds, and the generated enum lists every scene.
        let passing = try await swiftBuild(scratch, in: package)
        #expect(passing.status == 0, "\(passing.output.suffix(3000))")
        let run = try await runProcess(buildFolder.appending(path: "debug/Consumer").path, [])
        #expect(run.output == "hello,profile-copy,user-profile\n")
        // 3. A new module, declared in Swift, its manifest not yet generated: a scene may use
        // it, and the build says how to generate the manifest (nothing written by hand).
        let module = package.appending(path: "Sources/Consumer/WaveModule.swift")
        try Data(
            """
            import Scenery

            let waveDescriptor = ModuleDescriptor(
                type: "WaveModule",
                summary: "A wave.")

            """.utf8
        ).write(to: module)
        try Data(#"{ "modules": [ { "id": "wave", "type": "WaveModule", "params": { "to": "everyone" } } ] }"#.utf8)
            .write(to: package.appending(path: "Sources/Consumer/Scenes/wave.json"))
        let swiftOnly = try await swiftBuild(scratch, in: package)
        #expect(swiftOnly.status == 0, "\(swiftOnly.output.suffix(3000))")
        #expect(
            swiftOnly.output.contains(
                "\(module.path):1:1: warning: WaveModule is declared here and in no module manifest: scenes may use it, but their parameters and event rules for it are checked only when they run. Generate its manifest with the tool whose catalog registers it, into the scenes' folder: TOOL list --manifest --type WaveModule > Scenes/NAME.modules.json"
            ), "\(swiftOnly.output.suffix(3000))")
    }

    /// The build folder `SCENERY_PLUGIN_TEST_BUILD_FOLDER` names, if any, for the consumer
    /// package's builds instead of one of its own: CI passes the package's `.build`, which the
    /// suite's build filled, so Scenery and the plugin's tool are not compiled again (built
    /// with the same flags, they are reused). `swift test` locks the folder it runs from, so
    /// with that folder CI runs the test bundle itself, not `swift test` (`.ci/run`).
    static var sharedBuildFolder: URL? {
        ProcessInfo.processInfo.environment["SCENERY_PLUGIN_TEST_BUILD_FOLDER"].map { URL(filePath: $0, directoryHint: .isDirectory) }
    }

    /// `swift build` in the consumer package. SwiftPM itself crashed here once in CI (a
    /// segfault in libdispatch's event loop while it planned the build, "*** Program crashed"
    /// with frames in swift-package, before the plugin or any of this package's code ran);
    /// such a run says nothing about the plugin, so it is tried once more. Every assertion
    /// is made on a run that did not crash.
    func swiftBuild(_ scratch: [String], in package: URL) async throws -> (status: Int32, output: String) {
        let first = try await runProcess("swift", ["build"] + scratch, in: package)
        guard first.output.contains("*** Program crashed:"), first.output.contains(" in swift-package ") else { return first }
        return try await runProcess("swift", ["build"] + scratch, in: package)
    }
}
