import ArgumentParser

/// The `scenery` command: run, validate and list scenes.
@main
struct SceneryCLI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenery",
        abstract: "Compose screens from self-managing modules: run, validate and list scenes.",
        discussion: """
            Exit codes: 0 success; 1 a scene file has errors; 2 unknown scene, bad argument or \
            module failure; 64 bad command-line usage.
            """,
        subcommands: [RunCommand.self, ValidateCommand.self, ListCommand.self]
    )
}
