import ArgumentParser
import Foundation
import Scenery

/// The `scenery` command: run, explore, validate and list scenes, and manage the data.
struct SceneryCLI: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: ToolName.current,
            abstract: "Compose screens from self-managing modules: run, explore, validate and list scenes.",
            discussion: """
                Exit codes: 0 success; 1 a scene or data file has errors; 2 unknown scene, bad \
                argument value, module failure, database error or output that could not be written; \
                64 bad command-line usage.
                """,
            version: sceneryVersion,
            subcommands: [RunCommand.self, InteractCommand.self, ConnectCommand.self] + ToolCommand.added.map(\.type)
                + (ToolCommand.added.contains { $0.name == "serve" } ? [] : [ServeForwarder.self])
                + [ValidateCommand.self, ListCommand.self, ExperimentsCommand.self, DataCommand.self, NewCommand.self]
        )
    }

    /// Runs the tool, first catching a mistyped command name to suggest the right one, and
    /// handing `serve` to its own executable when this tool was built without it.
    static func run(_ arguments: [String]) async {
        // No command at all is a usage mistake (exit 64, as documented), with the help that
        // lists the commands on standard error.
        if arguments.isEmpty {
            Output.error(helpMessage())
            Foundation.exit(CommandFailure.Code.usage.rawValue)
        }
        if let first = arguments.first, !first.hasPrefix("-"), first != "help" {
            let names = configuration.subcommands.map { $0._commandName }
            if !names.contains(first) {
                Output.error(
                    "Unknown command \(first.quoted)\(didYouMean(first, in: names)); commands: \(names.joined(separator: ", ")). See '\(ToolName.current) --help'."
                )
                Foundation.exit(CommandFailure.Code.usage.rawValue)
            }
            if first == ServeForwarder.configuration.commandName, !ToolCommand.added.contains(where: { $0.name == first }) {
                ServeForwarder.forward(Array(arguments.dropFirst()))
            }
        }
        // A PostgreSQL database needs its client, which only TOOL-serve links.
        if let scheme = ToolDatabase.scheme(of: databaseArgument(in: arguments) ?? DatabaseOptions.environmentPath ?? ""),
            ToolDatabase.serverSchemes.contains(scheme), !ToolDatabase.added.contains(where: { $0.schemes.contains(scheme) })
        {
            ServeForwarder.forward([ServeForwarder.toolFlag] + arguments, reason: "a \(scheme):// database")
        }
        // `run` as people type it, read without the argument parser's reflection (a cold start).
        if arguments.first == RunCommand.configuration.commandName, let command = QuickRunParsing.command(from: arguments.dropFirst()) {
            do {
                try await command.run()
            } catch {
                exit(withError: error)
            }
            return
        }
        await main(arguments)
    }

    /// The value of `--database` among `arguments` (the last one, as the parser takes it).
    static func databaseArgument(in arguments: [String]) -> String? {
        var value: String?
        for (index, argument) in arguments.enumerated() {
            if argument == "--" { break }
            if argument == "--database", index + 1 < arguments.count {
                value = arguments[index + 1]
            } else if argument.hasPrefix("--database=") {
                value = String(argument.dropFirst("--database=".count))
            }
        }
        return value
    }
}
