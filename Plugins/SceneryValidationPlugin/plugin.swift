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
///
/// The scene files and module manifests in a `Scenes` folder of every target the target
/// depends on, in any package (Scenery's `ProfileDemoScenes` among them), are read too: a
/// scene may extend or replace theirs, and is checked against their module types.
@main
struct SceneryValidationPlugin: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: Target) async throws -> [Command] {
        guard let module = target as? SourceModuleTarget else { return [] }
        let files = SceneFiles.find(in: module.sourceFiles.map(\.url))
        let packages = Self.packageNames(from: context.package)
        var bases: [(name: String, files: [URL])] = []
        for dependency in target.recursiveTargetDependencies {
            guard let dependency = dependency as? SourceModuleTarget else { continue }
            // Only files in a folder named Scenes: a dependency's other JSON is not a scene.
            let found = SceneFiles.find(in: dependency.sourceFiles.map(\.url)).filter { $0.deletingLastPathComponent().lastPathComponent == "Scenes" }
            guard !found.isEmpty else { continue }
            let package = packages[dependency.id].map { " (package \($0))" } ?? ""
            bases.append(("\(dependency.name)\(package)", found))
        }
        // The target's Swift: a module declared there before its manifest is generated.
        let swift = module.sourceFiles(withSuffix: "swift").map(\.url)
        return try Self.commands(
            for: files, bases: bases, swift: swift, tool: context.tool(named: "SceneryValidator").url, work: context.pluginWorkDirectoryURL,
            target: target.name)
    }

    /// The display name of the package of each target, in `package` and its dependencies.
    static func packageNames(from package: Package) -> [Target.ID: String] {
        var names: [Target.ID: String] = [:]
        var pending = [package]
        var seen: Set<Package.ID> = []
        while let next = pending.popLast() {
            guard seen.insert(next.id).inserted else { continue }
            for target in next.targets { names[target.id] = next.displayName }
            pending += next.dependencies.map(\.package)
        }
        return names
    }

    /// The validation of `files` (with the scene files and manifests of the packages it
    /// builds on), or nothing when the target has no scene files.
    static func commands(
        for files: [URL], bases: [(name: String, files: [URL])] = [], swift: [URL] = [], tool: URL, work: URL, target: String
    ) -> [Command] {
        guard files.contains(where: { !$0.lastPathComponent.hasSuffix(".modules.json") }) else { return [] }
        let output = work.appending(path: "BundledScene.swift")
        let baseArguments = bases.flatMap { base in base.files.flatMap { ["--base", base.name, $0.path] } }
        let baseFiles = bases.flatMap(\.files)
        return [
            .buildCommand(
                displayName: "Validating the scene files of \(target)",
                executable: tool,
                arguments: ["--output", output.path] + baseArguments + swift.flatMap { ["--swift", $0.path] } + files.map(\.path),
                inputFiles: SceneFiles.directories(of: files) + files + baseFiles + swift + [tool],
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
