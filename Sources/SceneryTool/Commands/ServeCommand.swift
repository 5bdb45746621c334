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
            /scenes/ID?name=value (a scene), /sign-in, /preview/ID?name=value (every variant side by side). \
            With --watch, saving a scene file updates every open page of that scene; a file with errors \
            leaves pages as they were and shows the errors on them. Stop with Ctrl-C.
            """)

    @Option(help: "The port to listen on (0 picks a free one).")
    var port: Int = 8080

    @Option(help: "The address to listen on; 127.0.0.1 keeps the server on this machine.")
    var host: String = "127.0.0.1"

    @Flag(help: "Reload scene files when they change (the --scenes directory, else ./Scenes).")
    var watch = false

    @Flag(help: "Label each module's card with its id and type.")
    var debug = false

    @Option(help: "How many rows of a long list a page holds at once, moved as the person scrolls; 0 sends whole lists.")
    var windowRows = 60

    @OptionGroup var options: SessionOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("'--port \(port)' is not a port; use 1–65535, or 0 for any free port.") }
        guard (0...10_000).contains(windowRows) else {
            throw ValidationError("'--window-rows \(windowRows)' must be between 0 (whole lists) and 10000; 60 suits most screens.")
        }
    }

    func run() async throws {
        try await reportingFailures {
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
            var configuration = SceneryServer.Configuration(host: host, port: port)
            configuration.showsModuleLabels = debug
            configuration.rowWindow = windowRows > 0 ? windowRows : nil
            configuration.enablesPreview = true
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
struct SceneWatcher: Sendable {
    let directory: String
    let services: ToolServices

    /// A file's content, to tell what changed.
    private func snapshot() -> [String: Data] {
        let url = URL(filePath: directory, directoryHint: .isDirectory)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: directory)) ?? []
        var contents: [String: Data] = [:]
        for name in names where SceneRegistry.isSceneFile(name) || SceneRegistry.isManifestFile(name) {
            contents[name] = try? Data(contentsOf: url.appending(path: name))
        }
        return contents
    }

    func run(_ server: SceneryServer) async throws {
        var last = snapshot()
        while !Task.isCancelled {
            try await Task.sleep(for: .milliseconds(250))
            let now = snapshot()
            guard now != last else { continue }
            let changed = Set(now.keys.filter { now[$0] != last[$0] } + last.keys.filter { now[$0] == nil })
                .filter(SceneRegistry.isSceneFile).map { String($0.dropLast(".json".count)) }
            last = now
            do {
                let registry = try SceneOptions.loadRegistry(directory: directory, services: services)
                let ids = Set(registry.sceneIDs)
                let problems = ids.flatMap { registry.diagnostics(for: $0) }.filter { $0.severity == .error }
                if problems.isEmpty {
                    await server.reload(registry, changed: Set(changed), errors: nil)
                } else {
                    await server.reload(nil, changed: [], errors: problems.map(\.description).joined(separator: "\n"))
                }
            } catch {
                await server.reload(nil, changed: [], errors: String(describing: error))
            }
        }
    }
}
