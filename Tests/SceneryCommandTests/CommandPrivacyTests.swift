import Foundation
import Testing

/// Every command the `scenery` executable has, asked by Bob (user 2) or a signed-out
/// viewer for Alice's (user 1's) drafts: none prints them. The commands come from the
/// executable's own description of itself, so a command added without a row here fails the
/// inventory; a command that takes `--viewer` must be asked, not only described.
@Suite(.timeLimit(.minutes(5))) struct CommandPrivacyTests {
    /// The titles of Alice's drafts in the demo data, and the drafts tab only she has.
    static let secrets = ["Through the looking glass", "草稿：下一篇茶会", "Half written", "sections#drafts"]

    /// How a command is held to privacy.
    enum Check: Sendable {
        /// Runs each of these (arguments, standard input); none may print a secret.
        case asked([(arguments: [String], input: String)])
        /// A command of the database's or the server's operator, not of a viewer: why its
        /// output may hold anything, or where it is checked.
        case operatorOnly(String)
    }

    static let profile = ["user-profile", "--arg", "user=1"]

    static let commands: [String: Check] = [
        "run": .asked(
            [
                (["run"] + profile + ["--viewer", "2", "--select", "sections=drafts"], ""),
                (["run"] + profile + ["--viewer", "2", "--format", "json"], ""),
                (["run"] + profile + ["--viewer", "2", "--format", "html"], ""),
                (["run"] + profile + ["--select", "sections=drafts"], ""),
                (["run"] + profile + ["--viewer", "2", "--arg", "viewer=1"], ""),
            ]),
        "interact": .asked(
            [
                (["interact"] + profile + ["--viewer", "2", "--actions", "ids"], "sections#drafts\nshow\nquit\n"),
                (["interact"] + profile + ["--format", "json"], "sections#drafts\nresync\nquit\n"),
                (["interact"] + profile + ["--viewer", "2"], "inspect drafts\ninspect sections#drafts\ntrace\nquit\n"),
            ]),
        // Asked of a running `scenery serve` (started by the test); `{server}` is its address.
        "connect": .asked(
            [
                (["connect", "{server}"] + profile + ["--viewer", "2", "--actions", "ids"], "sections#drafts\nshow\ntrace\nquit\n"),
                (["connect", "{server}"] + profile, "show\nquit\n"),
            ]),
        "serve": .operatorOnly("Its answers are routes and page messages: RoutePrivacyTests asks every route, LiveSocketTests every socket."),
        "validate": .asked([(["validate"], "")]),
        "list": .asked([(["list"], ""), (["list", "--type", "DraftModule"], "")]),
        "experiments report": .asked([(["experiments", "report"], "")]),
        "data import": .operatorOnly("Writes the database from a file; prints counts."),
        "data export": .operatorOnly("The database's backup for its operator: it holds every draft, as a backup must."),
        "data reset": .operatorOnly("Writes the demo data; prints counts."),
        "data generate": .operatorOnly("Writes generated people and blogs; prints counts."),
        "new": .operatorOnly("Writes a new package from a template; reads no database."),
    ]

    let cli: CommandRunner

    init() throws { cli = try CommandRunner() }

    /// The executable's leaf commands (`data export`), with the options each takes.
    func leafCommands() async throws -> [String: Set<String>] {
        let dump = try await cli.run(["--experimental-dump-help"])
        #expect(dump.status == 0, "\(dump.error)")
        let tree = try JSONDecoder().decode(Dump.self, from: Data(dump.output.utf8))
        var leaves: [String: Set<String>] = [:]
        func walk(_ command: Dump.Command, path: [String]) {
            let here = path + [command.commandName]
            guard let subcommands = command.subcommands, !subcommands.isEmpty else {
                leaves[here.dropFirst().joined(separator: " ")] = Set((command.arguments ?? []).flatMap { $0.names ?? [] }.map(\.name))
                return
            }
            for subcommand in subcommands { walk(subcommand, path: here) }
        }
        walk(tree.command, path: [])
        leaves["help"] = nil  // ArgumentParser's own: prints usage
        return leaves
    }

    @Test func everyCommandHasARowHereAndEveryViewersCommandIsAsked() async throws {
        defer { cli.cleanUp() }
        let leaves = try await leafCommands()
        let rows = Set(Self.commands.keys)
        #expect(Set(leaves.keys).subtracting(rows).isEmpty, "commands with no row here: \(Set(leaves.keys).subtracting(rows).sorted())")
        #expect(rows.subtracting(leaves.keys).isEmpty, "rows for commands the executable no longer has: \(rows.subtracting(leaves.keys).sorted())")
        for (command, options) in leaves where options.contains("viewer") {
            guard case .asked? = Self.commands[command] else {
                Issue.record("'\(command)' takes --viewer: ask it for someone else's drafts here")
                continue
            }
        }
    }

    @Test func noCommandPrintsTheOwnersDraftsToAnyoneElse() async throws {
        defer { cli.cleanUp() }
        #expect(try await cli.run(["data", "reset"]).status == 0)
        // The secrets are real: Alice, on her own drafts tab, sees them.
        let own = try await cli.run(["run"] + Self.profile + ["--viewer", "1", "--select", "sections=drafts"])
        #expect(own.output.contains("Through the looking glass"), "\(own.error)")
        // With the inspector, so that `connect`'s `trace` is answered.
        let server = try await Server(cli, ["serve", "--port", "0", "--inspect"])
        defer { server.stop() }
        for (command, check) in Self.commands.sorted(by: { $0.key < $1.key }) {
            guard case .asked(let runs) = check else { continue }
            for run in runs {
                let arguments = run.arguments.map { $0 == "{server}" ? server.address : $0 }
                let result = try await cli.run(arguments, input: run.input)
                #expect(!result.output.isEmpty || !result.error.isEmpty, "'\(command)' printed nothing: \(arguments)")
                // What the viewer typed comes back quoted in a refusal ("No action
                // 'sections#drafts'"): their own words, not the page's.
                let printed = (result.output + result.error).replacingOccurrences(of: "'sections#drafts'", with: "")
                for secret in Self.secrets {
                    #expect(!printed.contains(secret), "'\(command)' \(arguments.joined(separator: " ")) prints \(secret)")
                }
            }
        }
    }

    /// The part of ArgumentParser's `--experimental-dump-help` read here.
    struct Dump: Decodable {
        struct Command: Decodable {
            struct Argument: Decodable {
                struct Name: Decodable { let name: String }
                let names: [Name]?
            }
            let commandName: String
            let arguments: [Argument]?
            let subcommands: [Command]?
        }
        let command: Command
    }
}
