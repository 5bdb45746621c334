import Foundation
import PackagePlugin

/// `swift package scenery-validate [PATH …]`: validates scene files (default: the
/// package's `Scenes/`) without building anything else.
@main
struct SceneryValidateCommand: CommandPlugin {
    func performCommand(context: PluginContext, arguments: [String]) async throws {
        let paths = arguments.isEmpty ? [context.package.directoryURL.appending(path: "Scenes")] : arguments.map { URL(filePath: $0) }
        for path in paths where !FileManager.default.fileExists(atPath: path.path) {
            Diagnostics.error("No such file or directory '\(path.path)'; pass scene files or a directory of them.")
            throw ExitCode.failure
        }
        let files = SceneFiles.find(in: paths)
        let tool = try context.tool(named: "SceneryValidator")
        let process = try Process.run(tool.url, arguments: files.map(\.path))
        process.waitUntilExit()
        guard process.terminationStatus == 0 else {
            Diagnostics.error("Scene validation failed; see the problems above.")
            throw ExitCode.failure
        }
        print("\(files.filter { !$0.lastPathComponent.hasSuffix(".modules.json") }.count) scene file(s) valid.")
    }
}

struct ExitCode: Error {
    static let failure = ExitCode()
}
