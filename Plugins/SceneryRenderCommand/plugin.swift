import Foundation
import PackagePlugin

/// `swift package scenery-render SCENE [--viewer ID] [--arg name=value …] [--format text|json|html]`:
/// renders one of the package's scenes with the `scenery` tool (built on demand), on the demo database kept in
/// the plugin's work directory (unless `--database` is given).
@main
struct SceneryRenderCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        guard let scene = arguments.first, !scene.hasPrefix("-") else {
            Diagnostics.error("Name the scene to render, as in: swift package scenery-render user-profile --viewer 1 --arg user=1")
            throw RenderFailure()
        }
        var options = Array(arguments.dropFirst())
        if !options.contains("--scenes") { options += ["--scenes", context.package.directoryURL.appending(path: "Scenes").path] }
        if !options.contains("--database") { options += ["--database", context.pluginWorkDirectoryURL.appending(path: "demo.sqlite").path] }
        // Build the `scenery` product through the package manager and run it.
        let build = try packageManager.build(.product("scenery"), parameters: .init(configuration: .debug, logging: .concise))
        guard build.succeeded, let tool = build.builtArtifacts.first(where: { $0.kind == .executable }) else {
            Diagnostics.error("Building the scenery tool failed:\n\(build.logText)")
            throw RenderFailure()
        }
        let process = try Process.run(tool.url, arguments: ["run", scene] + options)
        process.waitUntilExit()
        guard process.terminationStatus == 0 else { throw RenderFailure() }
    }
}

struct RenderFailure: Error, CustomStringConvertible {
    var description: String { "scenery-render failed; see the message above." }
}
