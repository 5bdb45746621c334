import ArgumentParser
import Foundation
import Scenery
import SceneryRemote

/// Where the scene files are: the scenes of the tool's catalog, and optionally a directory
/// or a scene server whose scenes add to them or replace them by id.
package struct SceneOptions: ParsableArguments {
    package init() {}

    @Option(
        name: .customLong("scenes"),
        help: ArgumentHelp(
            "A directory of scene files (and *.modules.json manifests), or the address of a scene server (http://HOST:PORT/scenes, as scenery serve publishes), to use over the scenes built into the tool; a scene replaces the built-in one with its id.",
            valueName: "dir|url"))
    package var directory: String?

    @Option(
        name: .customLong("cache"),
        help: ArgumentHelp(
            "Where scenes fetched from a server are kept (default: $XDG_CACHE_HOME/scenery/scenes, else ~/.cache/scenery/scenes); the tool runs on the last good versions when the server cannot be reached.",
            valueName: "dir"))
    var cache: String?

    /// The scene server, when `--scenes` is an address.
    package var server: URL? {
        guard let directory, directory.hasPrefix("http://") || directory.hasPrefix("https://") else { return nil }
        return URL(string: directory)
    }

    package mutating func validate() throws {
        if let directory, directory.hasPrefix("http://") || directory.hasPrefix("https://"), server?.host == nil {
            throw ValidationError("--scenes \(directory) is not an address of a scene server; give one like http://127.0.0.1:8080/scenes.")
        }
        if cache != nil, server == nil {
            throw ValidationError("--cache keeps scenes fetched from a server; use it with --scenes http://HOST:PORT/scenes.")
        }
    }

    /// Where the scenes come from, for messages.
    var description: String {
        directory.map { "\($0), over the built-in scenes" } ?? "built into the tool"
    }

    /// The cache directory in force for a server's scenes.
    var cacheDirectory: URL {
        if let cache { return URL(filePath: cache, directoryHint: .isDirectory) }
        let home = Environment.value("HOME") ?? FileManager.default.homeDirectoryForCurrentUser.path
        let cacheHome = Environment.value("XDG_CACHE_HOME") ?? URL(filePath: home).appending(path: ".cache").path
        return URL(filePath: cacheHome).appending(path: "scenery/scenes", directoryHint: .isDirectory)
    }

    /// A registry with every module type this tool knows, the built-in scenes, and those
    /// of `--scenes` over them: a directory's files, or a server's scenes (the last good
    /// versions from the cache, then a refresh; problems are printed as warnings and the
    /// scenes the tool had stay).
    ///
    /// - Parameter services: The data for the catalog's modules; `nil` declares them for
    ///   validation only.
    package func loadRegistry(services: ToolServices?, including resources: SceneResources = .all) async throws -> SceneRegistry {
        guard let server else { return try Self.loadRegistry(directory: directory, services: services, including: resources) }
        let remote = RemoteScenes(
            server: server, registry: try Self.loadRegistry(directory: nil, services: services, including: resources), transport: SocketSceneTransport(),
            cache: SceneCache(directory: cacheDirectory),
            limits: .init(timeout: .seconds(5)))
        let problems = await remote.loadCache() + remote.refresh()
        for problem in problems { Output.status("\(problem.description)\n") }
        return await remote.registry
    }

    /// A registry with the built-in scenes and those of `directory` over them.
    package static func loadRegistry(directory: String?, services: ToolServices?, including resources: SceneResources = .all) throws -> SceneRegistry {
        var registry = try ModuleCatalog.current.toolRegistry(services: services, including: resources)
        guard let directory else { return registry }
        let contents = try SceneDirectory(path: directory, option: "--scenes")
        try contents.declareManifests(in: &registry)
        do {
            // Read, not validated: a scene is validated when it runs, so one broken or costly
            // file never costs the others.
            let root = URL(filePath: directory, directoryHint: .isDirectory)
            if resources.contains(.translations) { registry.addMessageCatalogs(files: contents.messageCatalogs, displayRoot: root) }
            if resources.contains(.themes) { registry.addThemes(files: contents.themes, displayRoot: root) }
            try registry.addScenes(files: contents.sceneFiles, displayRoot: root)
        } catch {
            throw CommandFailure("\(error.description) (--scenes \(directory))", code: .sceneryError)
        }
        return registry
    }
}

extension ModuleCatalog {
    /// ``registry(services:)``, with a failure worded for the command line.
    func toolRegistry(services: ToolServices?, including resources: SceneResources = .all) throws -> SceneRegistry {
        do {
            return try registry(services: services, including: resources)
        } catch let error as SceneryError {
            throw CommandFailure("The tool's own scenes cannot be read: \(error.description) Reinstall the tool with its resources.", code: .sceneryError)
        }
    }
}

/// The scene files and module manifests of a directory (or one file), read the same way
/// by every command.
struct SceneDirectory {
    var sceneFiles: [URL] = []
    var manifests: [URL] = []
    var messageCatalogs: [URL] = []
    var themes: [URL] = []

    /// Lists `path`: a directory's scene files and manifests, or one file.
    /// - Throws: ``CommandFailure`` if it does not exist or holds neither.
    init(path: String, option: String? = nil) throws {
        var isDirectory: ObjCBool = false
        let named = option.map { "\($0) \(path.quoted)" } ?? path.quoted
        guard FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) else {
            throw CommandFailure("No such file or directory \(named); pass scene files or a directory of them.", code: .sceneryError)
        }
        guard isDirectory.boolValue else {
            let url = URL(filePath: path)
            if SceneRegistry.isManifestFile(url.lastPathComponent) {
                manifests = [url]
            } else if MessageCatalog.isCatalogFile(url.lastPathComponent) {
                messageCatalogs = [url]
            } else if Theme.isThemeFile(url.lastPathComponent) {
                themes = [url]
            } else {
                sceneFiles = [url]
            }
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
        messageCatalogs = entries.filter(MessageCatalog.isCatalogFile).map { directory.appending(path: $0) }
        themes = entries.filter(Theme.isThemeFile).map { directory.appending(path: $0) }
        if sceneFiles.isEmpty && manifests.isEmpty && messageCatalogs.isEmpty && themes.isEmpty {
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
