import Foundation
import PackagePlugin

/// Validates the scene files of the target it is applied to (its resources or other files
/// ending in `.json`, a `Scenes` folder resource included) on every build, and generates
/// `BundledScene`, a typed list of their ids, into that target.
///
/// The plugin only finds the files; `SceneryValidator` does the work and prints each
/// problem as `file:line:column: error: message`, failing the build. Every scene file, its
/// folder and the tool are declared as inputs, so editing, adding or removing a scene runs
/// it again. In an Xcode project it validates the target's input files the same way.
@main
struct SceneryValidationPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let files = SceneFiles.find(in: module.sourceFiles.map(\.url))
        return try Self.commands(for: files, tool: context.tool(named: "SceneryValidator").url, work: context.pluginWorkDirectoryURL, target: target.name)
    }

    /// The validation of `files`, or nothing when the target has no scene files.
    static func commands(for files: [URL], tool: URL, work: URL, target: String) -> [Command] {
        guard files.contains(where: { !$0.lastPathComponent.hasSuffix(".modules.json") }) else { return [] }
        let output = work.appending(path: "BundledScene.swift")
        return [
            .buildCommand(
                displayName: "Validating the scene files of \(target)",
                executable: tool,
                arguments: ["--output", output.path] + files.map(\.path),
                inputFiles: SceneFiles.directories(of: files) + files + [tool],
                outputFiles: [output])
        ]
    }
}

#if canImport(XcodeProjectPlugin)
    import XcodeProjectPlugin

    extension SceneryValidationPlugin: XcodeBuildToolPlugin {
        func createBuildCommands(context: XcodePluginContext, target: XcodeTarget) throws -> [Command] {
            let files = SceneFiles.find(in: target.inputFiles.map(\.url))
            return try Self.commands(
                for: files, tool: context.tool(named: "SceneryValidator").url, work: context.pluginWorkDirectoryURL, target: target.displayName)
        }
    }
#endif
