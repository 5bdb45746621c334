import ArgumentParser
import Foundation

#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// `serve` in a tool built without the server: runs the executable `TOOL-serve` beside this
/// one with the same arguments (`scenery serve --port 9000` runs `scenery-serve --port 9000`),
/// so running scenes never compiles a web server and serving them is still one command.
struct ServeForwarder: AsyncParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: "serve",
            abstract: "Serve the scenes as live web pages (runs the separate executable \(ToolName.current)\(executableSuffix); see its --help).")
    }

    /// What the server's executable adds to the tool's name.
    static let executableSuffix = "-serve"

    @Argument(parsing: .captureForPassthrough, help: ArgumentHelp("The arguments of \(ToolName.current)\(executableSuffix)."))
    var arguments: [String] = []

    func run() async throws {
        Self.forward(arguments)
    }

    /// The first argument with which `TOOL-serve` runs the whole tool (`scenery-serve --tool
    /// data export …`) rather than `serve`: how a tool without a PostgreSQL client runs a
    /// command on a PostgreSQL database.
    static let toolFlag = "--tool"

    /// Replaces this process with `TOOL-serve arguments…`, or exits with a usage error saying
    /// how to build it. `reason` says what needs it, when it is not `serve`.
    static func forward(_ arguments: [String], reason: String? = nil) -> Never {
        let executable = URL(filePath: Bundle.main.executablePath ?? CommandLine.arguments[0])
        let tool = executable.lastPathComponent
        let server = executable.deletingLastPathComponent().appending(path: "\(tool)\(executableSuffix)").path
        guard FileManager.default.isExecutableFile(atPath: server) else {
            if let reason {
                Output.error(
                    "A command on \(reason) runs in the separate executable '\(tool)-serve' (it has the PostgreSQL client, which running scenes on SQLite does not compile), and it is not built: run 'swift build --product \(tool)-serve' once, then this command again."
                )
            } else {
                Output.error(
                    "'serve' is the separate executable '\(tool)-serve', so that running scenes does not compile a web server, and it is not built: run 'swift build --product \(tool)-serve' once (then '\(tool) serve' runs it), or 'swift run \(tool)-serve' with the same arguments."
                )
            }
            Foundation.exit(CommandFailure.Code.usage.rawValue)
        }
        let argv = ([server] + arguments).map { strdup($0) } + [nil]
        execv(server, argv)
        Output.error("Cannot run \(server.quoted): \(String(cString: strerror(errno))).")
        Foundation.exit(CommandFailure.Code.sceneryError.rawValue)
    }
}
