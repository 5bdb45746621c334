import ArgumentParser
import Foundation
import ProfileDomain
import Scenery
import SceneryProfile

/// Where the scene files are.
struct SceneOptions: ParsableArguments {
    @Option(name: .customLong("scenes"), help: ArgumentHelp("The directory of scene files.", valueName: "dir"))
    var directory: String = "Scenes"

    /// A registry with every module type this tool knows and the scenes of `directory`.
    ///
    /// - Parameter services: The backend for the profile modules; `nil` declares them for
    ///   validation only.
    func loadRegistry(services: ProfileServices?) throws -> SceneRegistry {
        var registry = ModuleCatalog.registry(services: services)
        do {
            _ = try registry.loadScenes(in: URL(filePath: directory, directoryHint: .isDirectory))
        } catch {
            throw CommandFailure("\(error.description) (--scenes \(directory))", code: .sceneryError)
        }
        return registry
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
