import Foundation

/// The name the tool's help and messages call it by: the executable's own (`board`,
/// `Garden`), so an app's tool never speaks of `scenery`. `TOOL-serve` runs as its tool and
/// says the tool's name. Processes started another way (a test calling
/// `SceneryTool.main(catalog:arguments:)`) keep `scenery`.
enum ToolName {
    @TaskLocal static var current = "scenery"

    /// The tool's name from the path the process was started with: its last part, without
    /// the `-serve` of the executable that adds the server.
    static func of(executable path: String?) -> String {
        guard let path, !path.isEmpty else { return current }
        let name = URL(filePath: path).lastPathComponent
        let tool = name.hasSuffix(ServeForwarder.executableSuffix) ? String(name.dropLast(ServeForwarder.executableSuffix.count)) : name
        return tool.isEmpty ? current : tool
    }
}
