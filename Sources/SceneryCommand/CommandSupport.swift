import ArgumentParser
import Foundation
import ProfileDomain
import ProfileStore
import Scenery
import SceneryProfile

/// Options every command that reads scene files shares.
struct SceneOptions: ParsableArguments {
    @Option(name: .customLong("scenes"), help: "The directory of scene files.")
    var directory: String = "Scenes"

    /// A registry with every module type this tool knows and the scenes of `directory`.
    ///
    /// - Parameter services: The backend for the profile modules; `nil` declares them for
    ///   validation only.
    func loadRegistry(services: ProfileServices?) throws -> (SceneRegistry, [Diagnostic]) {
        var registry = ModuleCatalog.registry(services: services)
        let url = URL(filePath: directory, directoryHint: .isDirectory)
        do {
            let diagnostics = try registry.loadScenes(in: url)
            return (registry, diagnostics)
        } catch {
            throw CommandFailure(error.description, code: .sceneryError)
        }
    }
}

/// Where the profile data lives.
struct DatabaseOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The SQLite database; created and seeded with demo data on first use.",
            discussion: "Default: $SCENERY_DATABASE, else $XDG_DATA_HOME/scenery/demo.sqlite, else ~/.local/share/scenery/demo.sqlite."))
    var database: String?

    /// The database path in force.
    var path: String { database ?? Self.defaultPath }

    static var defaultPath: String {
        let environment = ProcessInfo.processInfo.environment
        if let path = environment["SCENERY_DATABASE"], !path.isEmpty { return path }
        let dataHome = environment["XDG_DATA_HOME"].flatMap { $0.isEmpty ? nil : $0 }
            ?? FileManager.default.homeDirectoryForCurrentUser.appending(path: ".local/share").path
        return URL(filePath: dataHome).appending(path: "scenery/demo.sqlite").path
    }

    /// Opens the store.
    func openStore() throws -> SQLiteProfileStore {
        do {
            return try SQLiteProfileStore(path: path)
        } catch {
            throw CommandFailure(SceneryError.message(for: error), code: .sceneryError)
        }
    }
}

/// The module types the command-line tool registers.
enum ModuleCatalog {
    static func registry(services: ProfileServices?) -> SceneRegistry {
        var registry = SceneRegistry()
        if let services {
            registry.registerProfileModules(services)
        } else {
            registry.declareProfileModules()
        }
        return registry
    }
}

/// A failure the tool reports on standard error with a documented exit code.
struct CommandFailure: Error, CustomStringConvertible {
    enum Code: Int32 {
        /// A scene file has errors.
        case invalidScene = 1
        /// Unknown scene, bad argument, module failure, unreadable files.
        case sceneryError = 2
    }

    var description: String
    var code: Code

    init(_ description: String, code: Code) {
        self.description = description
        self.code = code
    }
}

extension AsyncParsableCommand {
    /// Runs `body`, printing a ``CommandFailure`` or ``SceneryError`` as `error: …` and
    /// exiting with its code.
    func reportingFailures(_ body: () async throws -> Void) async throws {
        do {
            try await body()
        } catch let failure as CommandFailure {
            printError(failure.description)
            throw ExitCode(failure.code.rawValue)
        } catch let error as SceneryError {
            printError(error.description)
            throw ExitCode(error.code == .invalidScene ? CommandFailure.Code.invalidScene.rawValue : CommandFailure.Code.sceneryError.rawValue)
        }
    }
}

func printError(_ message: String) {
    FileHandle.standardError.write(Data("error: \(message)\n".utf8))
}

/// Parses `name=value` arguments given with `--arg`.
func parseArguments(_ pairs: [String]) throws -> [String: JSONValue] {
    var arguments: [String: JSONValue] = [:]
    for pair in pairs {
        guard let equals = pair.firstIndex(of: "="), equals != pair.startIndex else {
            throw ValidationError("'--arg \(pair)' must have the form name=value, for example --arg user=1.")
        }
        arguments[String(pair[..<equals])] = .string(String(pair[pair.index(after: equals)...]))
    }
    return arguments
}
