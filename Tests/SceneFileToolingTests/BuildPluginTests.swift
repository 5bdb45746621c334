import Foundation
import Testing

/// A package that depends on Scenery by path and applies the build plugin to a target with
/// a `Scenes` folder resource: a broken scene fails its build with the right diagnostic, a
/// correct one builds and the generated `BundledScene` lists the scenes.
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
                        resources: [.copy("Scenes")],
                        plugins: [.plugin(name: "SceneryValidationPlugin", package: "\(scenery.lastPathComponent)")])
                ]
            )

            """.utf8
        ).write(to: package.appending(path: "Package.swift"))
        let scratch = ["--scratch-path", work.appending(path: "build").path]
        // 1. A broken scene: the build fails with file:line:column.
        // The target's own scene files (its Scenes folder resource), not the package root's.
        let broken = package.appending(path: "Sources/Consumer/Scenes/broken.json")
        try Data(
            """
            {
              "modules": [
                { "id": "greeting", "type": "GreetingModul" }
              ]
            }
            """.utf8
        ).write(to: broken)
        let failing = try await swiftBuild(scratch, in: package)
        #expect(failing.status != 0, "the build must fail:\n\(failing.output.suffix(2000))")
        #expect(
            failing.output.contains(
                "\(broken.path):3:33: error: Unknown module type 'GreetingModul'; did you mean 'GreetingModule'?"),
            "\(failing.output.suffix(3000))")
        // 2. Fixed: it builds, and the generated enum lists every scene.
        try FileManager.default.removeItem(at: broken)
        let passing = try await swiftBuild(scratch, in: package)
        #expect(passing.status == 0, "\(passing.output.suffix(3000))")
        let run = try await runProcess(work.appending(path: "build/debug/Consumer").path, [])
        #expect(run.output == "hello,profile-copy\n")
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
