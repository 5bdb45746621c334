import Foundation
import Logging
import NIOWebSocket
import Scenery
import SceneryPageProtocol
import Tracing

/// One open page: its scene instance, the page's copy of the tree, and the socket to the
/// browser while there is one.
///
/// The page is rendered from a snapshot; every later update of the scene becomes a
/// numbered message of DOM operations (``DOMPlanner``). The session outlives its socket by
/// a grace period: a page that reconnects says the last message it applied, and gets the
/// messages it missed (or the whole scene again) from the same scene instance, so its
/// selected tab and loaded pages survive.
///
/// The session's jobs are in extensions by direction: `PageSession+Updates` (scene → page:
/// numbered messages, replay, confirmations), `PageSession+Messages` (page → scene: what the
/// page sends, checked and run in order) and `PageSession+Resume` (resume tokens). What has
/// rules of its own is a small value type with private state, tested on its own:
/// ``PageOpening`` (what the page was opened for), ``PageAttachment`` (its socket and grace
/// period), ``ReplayBuffer`` (messages kept for a reconnect), ``PagePlace`` (where the page
/// is, as a resume token keeps it), ``ActionQueue`` (events run in order), ``NewestRequest``
/// (window moves), ``OpenQuestions`` (confirmations awaiting an answer), ``PageResets``
/// (whole-scene resets, one at a time), ``ImpressionTimer`` and ``PageRates``.
actor PageSession {
    /// What the page's client reads (``PageOpening/Format``).
    typealias Format = PageOpening.Format

    nonisolated let id: String
    /// What the page was opened for: viewer, scene, arguments, language, format, address.
    nonisolated let opening: PageOpening
    /// The page's one isolation: the session, its scene and the scene's modules run in it,
    /// so a tap reaches a module and its patch the socket without a hop in between.
    nonisolated let page: PageIsolation
    nonisolated var unownedExecutor: UnownedSerialExecutor { page.unownedExecutor }
    nonisolated let host: PageHost
    let configuration: SceneryServer.Configuration
    let logger: Logger
    /// The server's series, and those of this page's scene once it is installed (a scene id
    /// labels a series only after the registry made the scene: an address cannot add series).
    let metrics: ServerMetrics
    private(set) var sceneMetrics: ServerMetrics.SceneSeries?
    /// The tracer the page's event spans start in, and the span of the page's first
    /// response, which each event's span links to.
    let tracer: any Tracer
    let openedIn: ServiceContext?

    private(set) var scene: SceneInstance?
    /// When the scene next counts impressions a visibility report asked for.
    var impressions = ImpressionTimer()
    /// The server's HTML patches, planned once for every page that gets the same update,
    /// and its renderer.
    let patches: SharedPatches
    /// The scene's update stream, kept in order for the page; it holds the updates that
    /// come before the scene is installed or while the page is being reset. It keeps no copy
    /// of the tree: the page borrows the scene's (each update carries the subtree it
    /// changes, and a tap is checked against the scene's model of the page).
    var mirror = SceneMirror(keepsTree: false)
    /// Messages to the page: numbered, the recent ones kept for replay.
    var pageSequence = 0
    /// The heading the page shows, while modules that may name the page still load.
    var shownTitle: String?
    /// The recent numbered messages, kept to replay after a reconnect.
    var replay: ReplayBuffer
    /// The socket, while the page has one, and how long it has had none.
    var attachment = PageAttachment(opened: .now)
    /// How often the page may act, ask for the whole scene, report, attach a socket.
    var rates: PageRates
    /// The newest problems the page reported, as logged, for the inspector.
    var problemsReported: [String] = []
    /// The page's recent events with their timings and patches, and the updates between
    /// them: kept (and timed) only while the inspector is on.
    var trace: PageTrace?
    /// The node kinds this page's client does not show that the log has named.
    var unshownKindsLogged: Set<PageProtocol.NodeKind> = []
    /// Controls the page activated, run one at a time in order; and where the page wants
    /// its long list's window (the newest move wins), run apart so a slow action never holds
    /// a scroll back. Each queue has a task only while it has work: an idle page holds none.
    var actions: ActionQueue
    var windowMoves = NewestRequest<(module: ModuleID, start: Int)>()
    /// Where the page is (its tabs, pages loaded, windows, finished actions), as a resume
    /// token keeps it.
    var place = PagePlace()
    /// The questions asked and not answered yet (they outlive a socket: a page that
    /// reconnects is asked again).
    var questions = OpenQuestions()
    private(set) var hasEnded = false
    /// Resets of the page (the whole scene sent again), one at a time.
    var resets = PageResets()

    /// The page's viewer, `nil` when signed out.
    nonisolated var viewer: String? { opening.viewer }
    /// The scene the page shows.
    nonisolated var sceneID: String { opening.sceneID }
    /// The context the page's scene is assembled for.
    nonisolated var context: SceneContext { opening.context }

    init(
        id: String, viewer: String?, sceneID: String, arguments: [String: JSONValue], renderer: HTMLRenderer,
        configuration: SceneryServer.Configuration, logger: Logger, isPreview: Bool = false, address: String = "unknown",
        anonymousID: String? = nil, armOverrides: [String: String] = [:], format: Format = .html, locale: String? = nil,
        page: PageIsolation = PageIsolation(), metrics: ServerMetrics = .none, tracer: any Tracer = NoOpTracer(),
        openedIn: ServiceContext? = nil, inspectorStats: InspectorStats? = nil, sharedPatches: SharedPatches? = nil
    ) {
        self.metrics = metrics
        self.tracer = tracer
        self.openedIn = openedIn
        self.page = page
        self.id = id
        opening = PageOpening(
            viewer: viewer, sceneID: sceneID, arguments: arguments, locale: locale, isPreview: isPreview, address: address,
            anonymousID: anonymousID, armOverrides: armOverrides, format: format)
        self.configuration = configuration
        self.logger = logger
        host = PageHost()
        // The server's table was made with its one renderer; a session made alone plans with `renderer`.
        patches = sharedPatches ?? SharedPatches(planner: DOMPlanner(renderer: renderer), capacity: 16)
        rates = PageRates(configuration)
        actions = ActionQueue(capacity: Self.queuedActions)
        replay = ReplayBuffer(mostMessages: configuration.replayedUpdates, mostBytes: configuration.replayedBytes)
        // With the inspector on, its events' times go to the server's live page too.
        if configuration.enablesInspector {
            var report: (@Sendable (Duration, Duration?) -> Void)?
            if let inspectorStats { report = { inspectorStats.recordEvent(duration: $0, firstPatch: $1) } }
            trace = PageTrace(reporting: report)
        }
    }

    /// Installs the started scene and the baseline the page was rendered from; updates that
    /// arrived meanwhile and are newer apply next.
    func install(_ scene: SceneInstance, baseline: SceneSnapshot) {
        self.scene = scene
        sceneMetrics = metrics.scene(sceneID)
        if !takeIn(baseline, sendingWholeScene: false) { Task { await resetPage() } }
    }

    /// Installs a scene made again from a resume token (``restore(from:)`` ran first): the
    /// page last applied message `since` of the server that went away, so the whole scene
    /// goes to it as message `since + 1` once its socket attaches.
    func installResumed(_ scene: SceneInstance, baseline: SceneSnapshot, since: Int) {
        self.scene = scene
        sceneMetrics = metrics.scene(sceneID)
        pageSequence = min(max(0, since), PageProtocol.largestSequence)
        if !takeIn(baseline, sendingWholeScene: true) { Task { await resetPage() } }
    }

    // MARK: Life

    /// Tidies the session at `now`: lets go of messages kept for replay past their age;
    /// returns whether the session has outlived its socket's grace period or never got one
    /// (the server then ends it). The server calls it every few seconds.
    func tidy(now: ContinuousClock.Instant) -> Bool {
        letGoOfOldMessages(now: now)
        return isExpired(now: now)
    }

    /// Whether the session has outlived its socket's grace period or never got one.
    private func isExpired(now: ContinuousClock.Instant) -> Bool {
        attachment.isExpired(now: now, grace: configuration.reconnectGrace, attachTimeout: configuration.attachTimeout)
    }

    /// Ends the session: the scene is left and the socket closed.
    func end() async {
        guard !hasEnded else { return }
        hasEnded = true
        letGoOfSocket()
        actions.removeAll()
        windowMoves.removeAll()
        questions.declineAll()
        impressions.cancel()
        await scene?.leave()
    }

    /// Puts a new scene in place of the current one (a scene file changed), keeping the
    /// selected tabs, and gives the page the whole scene.
    func replaceScene(using registry: SceneRegistry) async throws(SceneryError) {
        let next = try registry.instantiate(sceneID, for: context, host: host, on: page)
        mirror.prepareToAttach()
        await setInitialWindows(of: next)
        await next.start()
        if let previous = scene {
            for tabSwitch in previous.tabSwitches {
                guard let selected = await previous.selectedTab(of: tabSwitch.id),
                    next.tabSwitches.contains(where: { $0.id == tabSwitch.id && $0.tabs.contains(selected) })
                else { continue }
                await next.send(Event(.selectTab(selected, inSwitch: tabSwitch.id), from: NodeID(tabSwitch.id)))
            }
            await previous.leave()
            mirror = SceneMirror(keepsTree: false)  // what it held was the old scene's; the new scene's come from here on
        }
        await next.appear()
        scene = next
        if !takeIn(await next.takeBaseline(), sendingWholeScene: true) { await resetPage() }
    }
}
