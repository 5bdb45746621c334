import ArgumentParser
import Foundation
import Logging
import ProfileDomain
import Scenery
import SceneryServer

/// `scenery serve`: the scenes as live pages in a browser.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the scenes as live web pages: sign in as a demo user, tap, confirm, navigate.",
        discussion: """
            Prints 'Listening on http://HOST:PORT' once it accepts connections. Pages: / (the scenes), \
            /scenes/ID?name=value (a scene), /sign-in, and with --preview /preview/ID?name=value (every variant \
            side by side, for authors on this machine: a loopback --host only, and as yourself or signed out). \
            With --watch, saving a scene file updates every open page of that scene; a file with errors \
            leaves pages as they were and shows the errors on them. Stop with Ctrl-C.
            """)

    @Option(help: "The port to listen on (0 picks a free one).")
    var port: Int = 8080

    @Option(help: "The address to listen on; 127.0.0.1 keeps the server on this machine.")
    var host: String = "127.0.0.1"

    @Flag(help: "Reload scene files when they change (the --scenes directory, else ./Scenes).")
    var watch = false

    @Flag(help: "Serve /preview/ID: a scene's variants side by side, for authors (loopback --host only).")
    var preview = false

    @Flag(help: "Label each module's card with its id and type.")
    var debug = false

    @Option(help: "How many rows of a long list a page holds at once, moved as the person scrolls; 0 sends whole lists.")
    var windowRows = 60

    @Option(help: "How many pages one signed-in person may hold open at once (more are refused with 429).")
    var maxPagesPerViewer = SceneryServer.Configuration().maxPagesPerViewer

    @Option(help: "How many pages one client address may hold open at once (more are refused with 429).")
    var maxPagesPerAddress = SceneryServer.Configuration().maxPagesPerAddress

    @OptionGroup var signingKey: SigningKeyOption

    @OptionGroup var options: SessionOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("'--port \(port)' is not a port; use 1–65535, or 0 for any free port.") }
        if preview, !SceneryServer.Configuration.isLoopback(host) {
            throw ValidationError(
                "--preview shows scenes as their authors see them, so it is served on a loopback --host only (127.0.0.1 or ::1), not \(host.quoted); drop --preview, or serve on 127.0.0.1."
            )
        }
        guard (0...10_000).contains(windowRows) else {
            throw ValidationError("'--window-rows \(windowRows)' must be between 0 (whole lists) and 10000; 60 suits most screens.")
        }
        for (name, value) in [("--max-pages-per-viewer", maxPagesPerViewer), ("--max-pages-per-address", maxPagesPerAddress)] where value < 1 {
            throw ValidationError("'\(name) \(value)' must be at least 1: it is how many pages may be open at once.")
        }
    }

    func run() async throws {
        try await reportingFailures {
            let key = try signingKey.key(servingOn: host)
            let session = try await options.session()
            var scenes = options.scenes
            if watch, scenes.server != nil {
                throw CommandFailure("--watch watches a directory of scene files, not a server; drop --watch or pass --scenes DIR.", code: .usage)
            }
            if watch, scenes.directory == nil {
                guard FileManager.default.fileExists(atPath: "Scenes") else {
                    throw CommandFailure("--watch needs a directory of scene files: pass --scenes DIR (there is no ./Scenes here).", code: .usage)
                }
                scenes.directory = "Scenes"
            }
            let registry = try await scenes.loadRegistry(services: session.services)
            let users = try session.store.allUsers().map { SignInUser(id: $0.id.rawValue, name: $0.name) }
            var configuration = SceneryServer.Configuration(host: host, port: port, cookieSecret: key)
            configuration.showsModuleLabels = debug
            configuration.rowWindow = windowRows > 0 ? windowRows : nil
            configuration.enablesPreview = preview
            configuration.maxPagesPerViewer = maxPagesPerViewer
            configuration.maxPagesPerAddress = maxPagesPerAddress
            var logger = Logger(label: "scenery.serve")
            logger.logLevel = .notice
            let server = SceneryServer(registry: registry, users: users, configuration: configuration, logger: logger)
            let watcher = watch ? scenes.directory.map { SceneWatcher(directory: $0, services: session.services) } : nil
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await server.run { address in Output.line("Listening on \(address)") }
                }
                if let watcher {
                    group.addTask { try await watcher.run(server) }
                }
                try await group.next()
                group.cancelAll()
            }
        }
    }
}

/// Polls a scene directory and hands the server new scenes when a file changes.
///
/// Each poll compares what `stat` says of each scene file and manifest (kind, size,
/// modification time, inode), reading nothing; only a change reloads the files. A file
/// that cannot be read (a FIFO, a link loop, a file too large) or has errors is reported
/// for itself, and its scene keeps its last good version; every other scene reloads.
struct SceneWatcher: Sendable {
    let directory: String
    let services: ToolServices

    /// What `stat` says of a file, to tell whether it changed without reading it.
    struct Stamp: Equatable {
        var kind: UInt32
        var size: Int64
        var modified: Int64
        var inode: UInt64
        var problem: Int32
    }

    /// The stamps of the directory's scene files and manifests.
    private func stamps() -> [String: Stamp] {
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var stamps: [String: Stamp] = [:]
        for name in names where SceneRegistry.isSceneFile(name) || SceneRegistry.isManifestFile(name) {
            var status = stat()
            let path = URL(filePath: directory, directoryHint: .isDirectory).appending(path: name).path
            if stat(path, &status) == 0 {
                stamps[name] = Stamp(
                    kind: UInt32(status.st_mode & S_IFMT), size: Int64(status.st_size),
                    modified: Int64(status.st_mtim.tv_sec) * 1_000_000_000 + Int64(status.st_mtim.tv_nsec), inode: UInt64(status.st_ino),
                    problem: 0)
            } else {
                stamps[name] = Stamp(kind: 0, size: 0, modified: 0, inode: 0, problem: errno)
            }
        }
        return stamps
    }

    func run(_ server: SceneryServer) async throws {
        var last = stamps()
        while !Task.isCancelled {
            try await Task.sleep(for: .milliseconds(250))
            let now = stamps()
            guard now != last else { continue }
            let changed = Set(
                (now.keys.filter { now[$0] != last[$0] } + last.keys.filter { now[$0] == nil })
                    .filter(SceneRegistry.isSceneFile).map { String($0.dropLast(".json".count)) })
            last = now
            await reload(server, changed: changed)
        }
    }

    /// Reads the directory again and hands the server what is good.
    func reload(_ server: SceneryServer, changed: Set<String>) async {
        let previous = server.registry
        var registry: SceneRegistry
        do {
            registry = try SceneOptions.loadRegistry(directory: directory, services: services)
        } catch {
            await server.reload(nil, changed: [], errors: String(describing: error))
            return
        }
        let problems = registry.sceneIDs.flatMap { registry.diagnostics(for: $0) }.filter { $0.severity == .error }
        let broken = Set(registry.sceneIDs.filter { registry.diagnostics(for: $0).containsErrors })
        // A broken scene keeps the version that worked, so its open pages stay as they are.
        let kept = broken.compactMap { id -> (id: String, source: String, file: String)? in
            guard let source = previous.source(of: id), !previous.diagnostics(for: id).containsErrors else { return nil }
            return (id, source, "\(id).json")
        }
        registry.addScenes(sources: kept)
        await server.reload(
            registry, changed: changed.subtracting(broken), errors: problems.isEmpty ? nil : problems.map(\.description).joined(separator: "\n"))
    }
}
