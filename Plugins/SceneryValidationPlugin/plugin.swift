import Foundation
import PackagePlugin

/// Validates the package's `Scenes/*.json` on every build and generates `BundledScene`, a
/// typed list of the scene ids, into the target it is applied to.
///
/// The plugin only finds the files; `SceneryValidator` does the work and prints each
/// problem as `file:line:column: error: message`, failing the build. Every scene file and
/// the tool are declared as inputs, so editing or adding a scene runs it again.
@main
struct SceneryValidationPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        let scenes = context.package.directoryURL.appending(path: "Scenes")
        let files = ((try? FileManager.default.contentsOfDirectory(at: scenes, includingPropertiesForKeys: nil)) ?? [])
            .filter { $0.pathExtension == "json" && !$0.lastPathComponent.hasSuffix(".schema.json") }
            .sorted { $0.lastPathComponent < $1.lastPathComponent }
        guard !files.isEmpty else { return [] }
        let tool = try context.tool(named: "SceneryValidator")
        let output = context.pluginWorkDirectoryURL.appending(path: "BundledScene.swift")
        // The directory is an input too, so adding or removing a scene re-runs validation
        // even when SwiftPM reuses its build plan; the tool lists the directory itself.
        return [
            .buildCommand(
                displayName: "Validating scene files in Scenes/",
                executable: tool.url,
                arguments: ["--output", output.path, scenes.path],
                inputFiles: [scenes] + files + [tool.url],
                outputFiles: [output])
        ]
    }
}
