import ArgumentParser
import Foundation
import Logging
import Scenery
import SceneryExperiments
import SceneryServer
import SceneryTool

/// `scenery serve`: the scenes as live pages in a browser.
struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Serve the scenes as live web pages: sign in as one of the data's accounts, tap, confirm, navigate.",
        discussion: """
            Prints 'Listening on http://HOST:PORT' once it accepts connections, then the pages to open. Pages: / (the site's home: its people to visit), \
            /scenes (every scene, for developers), /scenes/ID?name=value (a scene), /sign-in, and with --preview /preview/ID?name=value (every variant \
            side by side, for authors on this machine: a loopback --host only, and as yourself or signed out), and with --metrics \
            /metrics (Prometheus's text format, to this machine only). \
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

    @Flag(
        help:
            "Add the page inspector to every scene page (the module, scene file line, variant, arms and state of any part; the page's events with their times) and the live page /scenes/scenery-stats (loopback --host only). SCENERY_EDITOR='vscode://file/{file}:{line}:{column}' adds a link to the scene file's line."
    )
    var inspect = false

    @Flag(help: "Serve the server's metrics (series named scenery_...) in Prometheus's text format at /metrics, to this machine only.")
    var metrics = false

    @Flag(help: "Offer the pseudo-locale en-XA (accented, 40% longer) in the language switch, for finding cut-off text.")
    var pseudoLocale = false

    @Option(help: "How many rows of a long list a page holds at once, moved as the person scrolls; 0 sends whole lists.")
    var windowRows = 60

    @Option(help: "How many pages one signed-in person may hold open at once (more are refused with 429).")
    var maxPagesPerViewer = SceneryServer.Configuration().maxPagesPerViewer

    @Option(help: "How many pages one client address may hold open at once (more are refused with 429).")
    var maxPagesPerAddress = SceneryServer.Configuration().maxPagesPerAddress

    @Option(help: "How many new signed-out visitor ids (the people an experiment counts) one client address is given an hour.")
    var newVisitorsPerAddressPerHour = SceneryServer.Configuration().newVisitorsPerAddressPerHour

    @Option(
        name: .customLong("trusted-proxy"),
        help: ArgumentHelp(
            "The IP address of a proxy in front of the server (127.0.0.1 for nginx on this machine); repeat for several. Pages it forwards count against the client its X-Forwarded-For names.",
            valueName: "address"))
    var trustedProxies: [String] = []

    @Option(
        help:
            "How long, in milliseconds, a page's first response waits for slow modules; past it the page is sent with them loading and they are streamed in as they load (0 answers at once)."
    )
    var firstResponseWait = 200

    @Option(
        help: ArgumentHelp(
            "The scene a person's name on the home page opens (it takes one person): user-profile when the site has it, else the first such scene.",
            valueName: "scene"))
    var personScene: String?

    @Option(help: "How long a module (or a counted row) must stay on screen to count as seen, in seconds.")
    var impressionSeconds = 1.0

    @Option(
        help:
            "How much of a module (from 0 to 1) must be on screen to count as seen; a module taller than the window counts by the share of the window it fills."
    )
    var impressionFraction = 0.5

    @OptionGroup var signingKey: SigningKeyOption

    @OptionGroup var options: SessionOptions

    func validate() throws {
        guard (0...65535).contains(port) else { throw ValidationError("'--port \(port)' is not a port; use 1–65535, or 0 for any free port.") }
        if inspect, !SceneryServer.Configuration.isLoopback(host) {
            throw ValidationError(
                "--inspect shows how pages are made (scene files, variants, arms, events), so it is served on a loopback --host only (127.0.0.1 or ::1), not \(host.quoted); drop --inspect, or serve on 127.0.0.1."
            )
        }
        if preview, !SceneryServer.Configuration.isLoopback(host) {
            throw ValidationError(
                "--preview shows scenes as their authors see them, so it is served on a loopback --host only (127.0.0.1 or ::1), not \(host.quoted); drop --preview, or serve on 127.0.0.1."
            )
        }
        guard (0...60_000).contains(firstResponseWait) else {
            throw ValidationError(
                "'--first-response-wait \(firstResponseWait)' must be between 0 (answer at once) and 60000 milliseconds; 200 suits most sites.")
        }
        guard (0...10_000).contains(windowRows) else {
            throw ValidationError("'--window-rows \(windowRows)' must be between 0 (whole lists) and 10000; 60 suits most screens.")
        }
        guard impressionSeconds.isFinite, (0...60).contains(impressionSeconds) else {
            throw ValidationError("'--impression-seconds \(impressionSeconds)' must be from 0 to 60 seconds; 1 is the common rule.")
        }
        guard impressionFraction.isFinite, impressionFraction > 0, impressionFraction <= 1 else {
            throw ValidationError("'--impression-fraction \(impressionFraction)' must be more than 0 and at most 1; 0.5 (half) is the common rule.")
        }
        for (name, value) in [("--max-pages-per-viewer", maxPagesPerViewer), ("--max-pages-per-address", maxPagesPerAddress)] where value < 1 {
            throw ValidationError("'\(name) \(value)' must be at least 1: it is how many pages may be open at once.")
        }
        guard newVisitorsPerAddressPerHour >= 0 else {
            throw ValidationError(
                "'--new-visitors-per-address-per-hour \(newVisitorsPerAddressPerHour)' must be 0 or more (0: signed-out visitors take part in no experiment).")
        }
        for proxy in trustedProxies where !SceneryServer.Configuration.isIPAddress(proxy) {
            throw ValidationError(
                "'--trusted-proxy \(proxy)' must be an IP address, as the server sees the proxy connect (127.0.0.1 for nginx on this machine).")
        }
    }

    func run() async throws {
        try await reportingFailures {
            let key = try signingKey.key(servingOn: host)
            let session = try await options.session()
            // Hear other servers' writes before taking the first page.
            do {
                try await session.store.listen()
            } catch {
                throw CommandFailure(SceneryError.message(for: error), code: .sceneryError)
            }
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
            var logger = Logger(label: "scenery.serve")
            logger.logLevel = .notice
            var registry = try await scenes.loadRegistry(services: session.services)
            registry.offersPseudoLocale = pseudoLocale
            if let personScene, !registry.sceneIDs.contains(personScene) {
                throw CommandFailure(
                    "--person-scene \(personScene.quoted) is not a scene of this site; use one of \(registry.sceneIDs.joined(separator: ", ")), or drop the option.",
                    code: .usage)
            }
            // Experiments: what pages saw goes to --impressions, else the database's table.
            registry.impressionRule = ImpressionRule(
                minimumVisibleFraction: impressionFraction, minimumDuration: .milliseconds(Int((impressionSeconds * 1000).rounded())))
            registry.impressionSink =
                session.impressionSink
                ?? DatabaseImpressionSink(
                    onNotice: { [logger] in logger.notice("\($0)") },
                    onFailure: { [logger] error in
                        logger.warning("Impressions are not recorded for now (retrying): \(error.errorDescription ?? "the database could not be written.")")
                    }
                ) { [store = session.store] records throws(DataError) in try await store.record(records) }
            let users: [SignInUser]
            do {
                users = try await session.store.signInAccounts().map(SignInUser.init)
            } catch {
                throw CommandFailure(SceneryError.message(for: error), code: .sceneryError)
            }
            var configuration = SceneryServer.Configuration(host: host, port: port, cookieSecret: key)
            configuration.showsModuleLabels = debug
            configuration.rowWindow = windowRows > 0 ? windowRows : nil
            configuration.enablesPreview = preview
            configuration.enablesInspector = inspect
            // The inspector's "Open in editor" link, for the editor this machine uses: to the
            // scene folder served (the bundled scenes are edited in ./Scenes, when there is one).
            if inspect, let template = ProcessInfo.processInfo.environment["SCENERY_EDITOR"], !template.isEmpty, scenes.server == nil {
                let folder = URL(filePath: scenes.directory ?? "Scenes")
                if FileManager.default.fileExists(atPath: folder.path) {
                    configuration.editorLink = SceneryServer.Configuration.editorLink(template, sceneFolder: folder)
                }
            }
            configuration.firstResponseWait = .milliseconds(firstResponseWait)
            configuration.maxPagesPerViewer = maxPagesPerViewer
            configuration.maxPagesPerAddress = maxPagesPerAddress
            configuration.newVisitorsPerAddressPerHour = newVisitorsPerAddressPerHour
            configuration.trustedProxies = Set(trustedProxies)
            // Actions and resume tokens are recorded in the database every server shares.
            configuration.actionLedger = session.store
            configuration.pictureFolders = ModuleCatalog.running.pictureFolders
            configuration.personScene = personScene ?? registry.defaultPersonScene
            if metrics { configuration.telemetry = PrometheusTelemetry.make() }
            let server = SceneryServer(registry: registry, users: users, configuration: configuration, logger: logger)
            // What each change costs to hand over to open pages, with the server's other series.
            if metrics || inspect { session.store.reportFanOuts(to: server.record) }
            // The people who may sign in follow the data (a removed person cannot sign in).
            let accounts = Task { [store = session.store, logger] in
                await store.followAccounts {
                    do {
                        server.replaceUsers(with: try await store.signInAccounts().map(SignInUser.init))
                    } catch {
                        logger.warning("The people who may sign in were not read again (the last list stays): \(SceneryError.message(for: error))")
                    }
                }
            }
            defer { accounts.cancel() }
            let watcher = watch ? scenes.directory.map { SceneWatcher(directory: $0, services: session.services) } : nil
            try await withThrowingTaskGroup(of: Void.self) { group in
                group.addTask {
                    try await server.run { [preview, inspect, metrics] address in
                        Output.line("Listening on \(address)")
                        Output.line(
                            "Open \(address)/ for the home page, \(address)/scenes for every scene\(users.isEmpty ? "" : ", \(address)/sign-in to sign in as one of the data's accounts")"
                        )
                        if preview { Output.line("Variants side by side: \(address)/preview/<scene id>") }
                        if inspect {
                            Output.line("The Inspect button on each scene page shows how a part of it was made")
                            Output.line("This server's figures, live: \(address)/scenes/scenery-stats")
                        }
                        if metrics { Output.line("Metrics for a scraper on this machine: \(address)/metrics") }
                    }
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
