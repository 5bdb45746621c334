import ArgumentParser

/// A command a tool adds to the ones every tool built with ``SceneryTool`` has (`run`,
/// `interact`, `validate`, `list`, `data`).
///
/// `serve` is one: it lives in the `SceneryServeTool` library because it compiles a web
/// server, which a tool that only runs scenes does not need. A package's executable that
/// wants it in-process adds it:
///
/// ```swift
/// import SceneryServeTool
/// import SceneryTool
///
/// await SceneryTool.main(catalog: .profile + .recycleBin, adding: [.serve])
/// ```
///
/// A tool built without `serve` hands `TOOL serve …` to an executable named `TOOL-serve`
/// beside it (as `scenery serve` runs `scenery-serve`), or says how to build one.
public struct ToolCommand: Sendable {
    /// The command's argument-parser type.
    let type: any AsyncParsableCommand.Type

    /// A command of this type (for the libraries of this package).
    package init(_ type: any AsyncParsableCommand.Type) {
        self.type = type
    }

    /// The name people type.
    var name: String { type._commandName }

    /// The commands the running tool added.
    @TaskLocal static var added: [ToolCommand] = []
}
