import ArgumentParser
import Foundation
import ProfileDomain
import Scenery
import SceneryProfile

/// Where the scene files are: the scenes built into the tool, and optionally a directory
/// whose scenes add to them or replace them by id.
struct SceneOptions: ParsableArguments {
    @Option(
        name: .customLong("scenes"),
        help: ArgumentHelp(
            "A directory of scene files (and *.modules.json manifests) to use over the scenes built into the tool; a file replaces the built-in scene with its id.",
            valueName: "dir"))
    var directory: String?

    /// Where the scenes come from, for messages.
    var description: String {
        directory.map { "\($0), over the built-in scenes" } ?? "built into the tool"
    }

    /// A registry with every module type this tool knows, the built-in scenes, and those
    /// of `directory` over them.
    ///
    /// - Parameter services: The backend for the profile modules; `nil` declares them for
    ///   validation only.
    func loadRegistry(services: ProfileServices?) throws -> SceneRegistry {
        try Self.loadRegistry(directory: directory, services: services)
    }

    /// A registry with the built-in scenes and those of `directory` over them.
    static func loadRegistry(directory: String?, services: ProfileServices?) throws -> SceneRegistry {
        var registry = ModuleCatalog.registry(services: services)
        ModuleCatalog.addBuiltInScenes(to: &registry)
        guard let directory else { return registry }
        let contents = try SceneDirectory(path: directory, option: "--scenes")
        try contents.declareManifests(in: &registry)
        do {
            // Read, not validated: a scene is validated when it runs, so one broken or costly
            // file never costs the others.
            try registry.addScenes(files: contents.sceneFiles, displayRoot: URL(filePath: directory, directoryHint: .isDirectory))
        } catch {
            throw CommandFailure("\(error.description) (--scenes \(directory))", code: .sceneryError)
        }
        return registry
    }
}

/// The module types and scenes the command-line tool has built in.
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

    /// Adds the scenes of this package's `Scenes/`, embedded at build time.
    static func addBuiltInScenes(to registry: inout SceneRegistry) {
        registry.addScenes(sources: BundledScene.allCases.map { ($0.rawValue, $0.source, "Scenes/\($0.rawValue).json") })
    }
}

/// The scene files and module manifests of a directory (or one file), read the same way
/// by every command.
struct SceneDirectory {
    var sceneFiles: [URL] = []
    var manifests: [URL] = []

    /// Lists `path`: a directory's scene files and manifests, or one file.
    /// - Throws: ``CommandFailure`` if it does not exist or holds neither.
    init(path: String, option: String? = nil) throws {
        var isDirectory: ObjCBool = false
        let named = option.map { "\($0) \(path)" } ?? "'\(path)'"
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure("No such file or directory \(named); pass scene files or a directory of them.", code: .sceneryError)
        }
        guard isDirectory.boolValue else {
            let url = URL(filePath: path)
            if SceneRegistry.isManifestFile(url.lastPathComponent) { manifests = [url] } else { sceneFiles = [url] }
            return
        }
        let entries: [String]
        do {
            entries = try FileManager.default.contentsOfDirectory(atPath: path).sorted()
        } catch {
            throw CommandFailure("Cannot list \(named): \(error.localizedDescription).", code: .sceneryError)
        }
        let directory = URL(filePath: path, directoryHint: .isDirectory)
        sceneFiles = entries.filter(SceneRegistry.isSceneFile).map { directory.appending(path: $0) }
        manifests = entries.filter(SceneRegistry.isManifestFile).map { directory.appending(path: $0) }
        if sceneFiles.isEmpty && manifests.isEmpty {
            throw CommandFailure("\(named) holds no scene files (*.json); pass a directory of scene files.", code: .sceneryError)
        }
    }

    /// Declares the module types of the manifests.
    func declareManifests(in registry: inout SceneRegistry) throws {
        for manifest in manifests {
            do {
                registry.declareModules(from: try ModuleManifest.load(from: manifest))
            } catch {
                throw CommandFailure(error.description, code: .invalidFile)
            }
        }
    }
}
