import Foundation

/// The `scenery` command-line tool as a library: every command, for the module types and
/// scenes of a ``ModuleCatalog``.
///
/// An outside package's executable target is the whole tool with its own modules:
///
/// ```swift
/// // Sources/recycle-bin/main.swift
/// import ProfileDemoTool
/// import RecycleBin
/// import SceneryTool
///
/// await SceneryTool.main(catalog: .profile + .recycleBin)
/// ```
///
/// ```text
/// $ swift run recycle-bin run user-profile --viewer 1 --arg user=1
/// $ swift run recycle-bin validate Scenes
/// ```
///
/// `serve` compiles a web server, so it is a command a tool adds (``ToolCommand``):
/// `SceneryTool.main(catalog: …, adding: [.serve])` with `import SceneryServeTool`.
public enum SceneryTool {
    /// Runs the tool with the process's arguments and exits with its status (see
    /// `scenery --help` for the exit codes).
    ///
    /// - Parameters:
    ///   - catalog: The module types, scenes and services the commands know.
    ///   - commands: Commands beyond the ones every tool has, such as `.serve` from
    ///     `SceneryServeTool`.
    ///   - databases: Databases beyond the catalog's, opened from a URL given to
    ///     `--database`, such as `.profilePostgres` from `ProfileDemoToolPostgres`.
    public static func main(catalog: ModuleCatalog, adding commands: [ToolCommand] = [], databases: [ToolDatabase] = []) async {
        await ToolName.$current.withValue(ToolName.of(executable: CommandLine.arguments.first)) {
            await main(catalog: catalog, arguments: Array(CommandLine.arguments.dropFirst()), adding: commands, databases: databases)
        }
    }

    /// Runs the tool with these arguments (the command name first, as in `["run", "user-profile"]`).
    public static func main(catalog: ModuleCatalog, arguments: [String], adding commands: [ToolCommand] = [], databases: [ToolDatabase] = []) async {
        await ToolDatabase.$added.withValue(catalog.databases + databases) {
            await ToolCommand.$added.withValue(commands) {
                await ModuleCatalog.$current.withValue(catalog) {
                    await SceneryCLI.run(arguments)
                }
            }
        }
    }

    /// Runs `TOOL-serve`, the executable a tool without the server hands work to: with the
    /// process's arguments `ARGS` it runs `TOOL serve ARGS`, and with `--tool ARGS` it runs
    /// `TOOL ARGS` (how `scenery` runs a command on a PostgreSQL database, whose client only
    /// `TOOL-serve` links).
    ///
    /// ```swift
    /// // Sources/scenery-serve/main.swift
    /// import ProfileDemoTool
    /// import ProfileDemoToolPostgres
    /// import SceneryServeTool
    /// import SceneryTool
    ///
    /// await SceneryTool.serverMain(catalog: .profile, adding: [.serve], databases: [.profilePostgres])
    /// ```
    public static func serverMain(catalog: ModuleCatalog, adding commands: [ToolCommand], databases: [ToolDatabase] = []) async {
        var arguments = Array(CommandLine.arguments.dropFirst())
        if arguments.first == ServeForwarder.toolFlag {
            arguments.removeFirst()
        } else {
            arguments.insert("serve", at: 0)
        }
        await ToolName.$current.withValue(ToolName.of(executable: CommandLine.arguments.first)) {
            await main(catalog: catalog, arguments: arguments, adding: commands, databases: databases)
        }
    }
}
