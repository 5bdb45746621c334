import SceneryTool

extension ToolCommand {
    /// `serve`: the scenes as live web pages, on Hummingbird (``SceneryServer``'s options on
    /// the command line). Add it to a tool that should serve in-process:
    ///
    /// ```swift
    /// await SceneryTool.main(catalog: .profile + .recycleBin, adding: [.serve])
    /// ```
    public static var serve: ToolCommand { ToolCommand(ServeCommand.self) }
}
