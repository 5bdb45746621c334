import ArgumentParser

/// The `scenery` command: run, explore, validate and list scenes, and manage the data.
@main
struct SceneryCLI: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "scenery",
        abstract: "Compose screens from self-managing modules: run, explore, validate and list scenes.",
        discussion: """
            Exit codes: 0 success; 1 a scene or data file has errors; 2 unknown scene, bad \
            argument value, module failure or database error; 64 bad command-line usage.
            """,
        subcommands: [RunCommand.self, InteractCommand.self, ValidateCommand.self, ListCommand.self, DataCommand.self]
    )
}
