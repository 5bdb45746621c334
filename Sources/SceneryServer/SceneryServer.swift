import Foundation
import Hummingbird
import HummingbirdCore
import Logging
import Metrics
import NIOCore
import Scenery
import Tracing

/// Serves scenes as live web pages: the browser host of record.
///
/// A page is rendered on the server (readable before any script runs), then a small script
/// opens a WebSocket, sends the id of each control a person activates, and applies the
/// numbered DOM operations the server sends back. One `SceneInstance` lives per open page;
/// the viewer comes only from a signed sign-in cookie.
///
/// ```swift
/// var registry = SceneRegistry()
/// registry.registerProfileModules(services)
/// _ = try registry.loadScenes(in: URL(filePath: "Scenes"))
/// let server = SceneryServer(registry: registry, users: [SignInUser(id: "1", name: "Alice")])
/// try await server.run { address in print("Listening on \(address)") }
/// ```
///
/// Routes: `/` (the scenes), `/scenes/{id}?name=value…` (a scene), `/sign-in` (GET a page,
/// POST `user=ID`), `/sign-out` (POST), `/preview/{id}?…` (when enabled), `/live` (the
/// WebSocket), `/assets/scenery.js` and `/assets/scenery.css`. Build ``application(onListening:)`` to
/// test it, or ``router()`` to mount it in an application of your own.
public final class SceneryServer: Sendable {
    /// How the server listens and what it allows.
    public let configuration: Configuration
    /// The users the sign-in page offers (and the only viewers the server accepts): those
    /// it was made with, or the last ``replaceUsers(with:)`` gave.
    public var users: [SignInUser] { state.withLock { $0.users } }
    let sessions: SessionStore
    let metrics: ServerMetrics
    /// The figures of the inspector's live page, kept only with the inspector on.
    let inspectorStats: InspectorStats?
    let tracer: any Tracer
    let cookies: SignedCookie
    let visitors: VisitorIssuer
    let renderer: HTMLRenderer
    /// The HTML patches every page of the server shares when they get the same update.
    let sharedPatches: SharedPatches
    let logger: Logger
    /// Read by every request at once: `Locked`, which the thread sanitizer sees (see `Locked`).
    private let state: Locked<LibraryState>

    struct LibraryState {
        var registry: SceneRegistry
        var users: [SignInUser]
        var errors: String?
        /// The languages asked for (`?lang=`) that the site cannot show, each logged once.
        var unshownLanguages: Set<String> = []
    }

    /// The languages chosen that the site could not show, as logged.
    var unshownLanguages: Set<String> { state.withLock { $0.unshownLanguages } }

    /// Logs, once per language (at most 64), that a visitor chose a language the site has
    /// no catalog of, so that its pages showed in the scene's own.
    func noteUnshownLanguage(_ tag: String, sceneID: String, shown: String) {
        let isNew = state.withLock { state in
            guard state.unshownLanguages.count < 64 else { return false }
            return state.unshownLanguages.insert(tag.lowercased()).inserted
        }
        guard isNew else { return }
        logger.notice(
            "A visitor chose the language \(tag.quoted), which the site has no catalog of; \(sceneID.quoted) shows in \(shown.quoted). Add Scenes/\(tag).messages.json to offer it (said once per language)."
        )
    }

    /// Creates a server for the scenes of a registry (with its modules registered).
    public convenience init(registry: SceneRegistry, users: [SignInUser], configuration: Configuration = Configuration(), logger: Logger? = nil) {
        self.init(registry: registry, users: users, configuration: configuration, logger: logger, checksSharedPatches: false)
    }

    /// A server whose pages, with `checksSharedPatches`, plan every patch they reuse from
    /// another page again alone and note any difference (``SharedPatches``): for tests of
    /// what pages share.
    init(registry: SceneRegistry, users: [SignInUser], configuration: Configuration, logger: Logger?, checksSharedPatches: Bool) {
        self.configuration = configuration
        metrics = ServerMetrics(factory: configuration.telemetry.metrics ?? MetricsSystem.factory)
        sessions = SessionStore(metrics: metrics)
        tracer = configuration.telemetry.tracer ?? InstrumentationSystem.tracer
        cookies = SignedCookie(secret: configuration.cookieSecret)
        visitors = VisitorIssuer(secret: configuration.cookieSecret, newPerAddressPerHour: configuration.newVisitorsPerAddressPerHour)
        // The page sends a control's node id only; the event stays on the server.
        renderer = HTMLRenderer(showsModuleLabels: configuration.showsModuleLabels, carriesEvents: false)
        sharedPatches = SharedPatches(planner: DOMPlanner(renderer: renderer), checksReuse: checksSharedPatches)
        self.logger = logger ?? Logger(label: "scenery.server")
        state = Locked(LibraryState(registry: registry, users: users, errors: nil))
        inspectorStats = configuration.enablesInspector ? InspectorStats() : nil
        state.withLock { $0.registry.observe(by: metrics) }
        addInspectorPage()
    }

    /// With the inspector on, adds its live page (`/scenes/scenery-stats`) to the registry.
    private func addInspectorPage() {
        guard let inspectorStats else { return }
        let sessions = sessions
        let added = state.withLock { $0.registry.addInspectorPage(inspectorStats) { await sessions.count } }
        if !added { logger.notice("The app has a scene named \(ServerStatsModule.sceneID.quoted): the inspector's live page is not served.") }
    }

    /// Puts a new list of people in place of ``users``, as the data changed (an import by
    /// another process, a new account): from the next request on, the sign-in page, the
    /// home page and the scenes' index list them, someone no longer listed cannot sign in,
    /// and a cookie of theirs signs nobody in. Pages already open stay as they are.
    ///
    /// ```swift
    /// server.replaceUsers(with: try await store.signInAccounts().map { SignInUser(id: $0.id, name: $0.name) })
    /// ```
    public func replaceUsers(with users: [SignInUser]) {
        let before = state.withLock { state in
            defer { state.users = users }
            return state.users.count
        }
        if before != users.count { logger.notice("the people who may sign in changed: \(before) before, \(users.count) now") }
    }

    /// The scenes pages are assembled from now.
    public var registry: SceneRegistry { state.withLock { $0.registry } }

    /// Puts new scenes in place after scene files changed. Every open page of a changed
    /// scene (or of a scene that extends one) is assembled again and updated in place,
    /// keeping its selected tabs. With `errors` (the text `scenery validate` prints), pages
    /// keep the last good scenes and show the errors until a reload without them.
    ///
    /// - Parameters:
    ///   - registry: The new scenes, or `nil` to keep the current ones (when the files
    ///     have errors).
    ///   - changed: The ids of the scenes whose files changed.
    ///   - errors: What is wrong, or `nil` when every file is valid.
    public func reload(_ registry: SceneRegistry?, changed: Set<String>, errors: String?) async {
        let oldThemes = self.registry.themeStylesheet
        state.withLock { state in
            if let registry {
                state.registry = registry
                state.registry.observe(by: metrics)
            }
            state.errors = errors
        }
        if registry != nil { addInspectorPage() }
        // New themes restyle every open page in place.
        let newThemes = self.registry.themeStylesheet
        let restyle = newThemes == oldThemes ? nil : "\(Self.themeStylesheetPath)?v=\(Self.themeVersion(of: newThemes))"
        // Every page at once: a slow page never holds the others back.
        await withTaskGroup(of: Void.self) { group in
            for session in await sessions.all {
                group.addTask {
                    if let restyle { await session.restyle(href: restyle) }
                    await session.showErrors(errors)
                    guard let registry, Self.depends(session.sceneID, on: changed, in: registry) else { return }
                    do throws(SceneryError) {
                        try await session.replaceScene(using: registry)
                    } catch {
                        await session.showErrors(error.description)
                    }
                }
            }
        }
    }

    /// Whether a scene is one of `changed` or extends one of them.
    static func depends(_ sceneID: String, on changed: Set<String>, in registry: SceneRegistry) -> Bool {
        var visited: Set<String> = []
        var next: String? = sceneID
        while let id = next, visited.insert(id).inserted {
            if changed.contains(id) { return true }
            next = registry.definition(of: id)?.extends
        }
        return false
    }

    /// The errors of the scene files, if the last reload had any.
    var currentErrors: String? { state.withLock { $0.errors } }

    /// How many pages are open.
    public var openPages: Int {
        get async { await sessions.count }
    }

    /// Runs the server until the task is cancelled; `onListening` receives the address
    /// (`http://127.0.0.1:8080`) once it accepts connections.
    /// - Throws: ``ConfigurationError`` if the configuration cannot be served (see
    ///   ``Configuration/validate()``), or what the server throws while it runs.
    public func run(onListening: @escaping @Sendable (String) -> Void = { _ in }) async throws {
        try configuration.validate()
        let app = application(onListening: onListening)
        try await app.runService()
    }

    /// The application, for tests and for running it yourself.
    ///
    /// Every request is checked and timed before it is parsed (see
    /// ``Configuration/headerTimeout``); kept-alive connections close after
    /// ``Configuration/idleTimeout``.
    public func application(onListening: @escaping @Sendable (String) -> Void = { _ in }) -> some ApplicationProtocol {
        application(requestTimeout: nil, onListening: onListening)
    }

    /// The application, with `requestTimeout` in place of the configuration's header and
    /// body timeouts when it is given: the test kit's, whose requests are late because the
    /// machine running the tests is busy, not because a client is slow.
    package func application(
        requestTimeout: Duration?, onListening: @escaping @Sendable (String) -> Void = { _ in }
    ) -> some ApplicationProtocol {
        let host = configuration.host
        return Application(
            router: router(),
            server: httpServer(requestTimeout: requestTimeout),
            configuration: .init(address: .hostname(host, port: configuration.port), serverName: "Scenery"),
            services: [SessionSweeper(sessions: sessions)],
            onServerRunning: { channel in
                let port = channel.localAddress?.port ?? 0
                onListening("http://\(host):\(port)")
            },
            logger: logger
        )
    }

    /// The server's connections: HTTP/1.1 for the routes, each request checked and timed
    /// before it is parsed, and `/live` upgraded to a page socket served on the event loop
    /// (no task per open page). Use it with ``router()`` to serve the scenes from an
    /// application of your own:
    ///
    /// ```swift
    /// let app = Application(router: scenery.router(), server: scenery.httpServer())
    /// ```
    public func httpServer() -> HTTPServerBuilder { httpServer(requestTimeout: nil) }

    private func httpServer(requestTimeout: Duration?) -> HTTPServerBuilder {
        let http1 = HTTP1Channel.Configuration(idleTimeout: TimeAmount(configuration.idleTimeout))
        let limits = RequestGuard.Limits(
            headerTimeout: TimeAmount(requestTimeout ?? configuration.headerTimeout),
            bodyTimeout: TimeAmount(requestTimeout ?? configuration.bodyTimeout), maxHeadBytes: configuration.maxHeadBytes)
        let maxMessageSize = configuration.maxMessageSize
        let pingInterval = TimeAmount(configuration.pingInterval)
        return HTTPServerBuilder { responder in
            GuardedChannel(
                inner: PageSocketUpgradeChannel(
                    responder: responder, http1: http1, maxFrameSize: maxMessageSize,
                    accept: { request in await self.acceptPageSocket(request) },
                    pingInterval: pingInterval, closeTimeout: .seconds(5)),
                limits: limits)
        }
    }
}

extension SceneRegistry {
    /// Adds the server's metrics to the registry's activity observers, once, when they go
    /// anywhere (else nothing is timed).
    fileprivate mutating func observe(by metrics: ServerMetrics) {
        guard metrics.isRecording, !activityObservers.contains(where: { ($0 as? ServerMetrics) === metrics }) else { return }
        activityObservers.append(metrics)
    }
}
