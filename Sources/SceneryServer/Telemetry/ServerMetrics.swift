import CoreMetrics
import Scenery

/// A server's series, made once from its metrics backend (``SceneryServer/Telemetry``).
///
/// Labels carry scene ids only (the author's names, a bounded set checked against the
/// registry before a page counts): never a viewer, an address, a session or a value a
/// page shows.
final class ServerMetrics: Sendable {
    /// Open pages: sessions whose scene runs, with a socket or within their grace period.
    let pagesOpen: Meter
    /// Open page sockets.
    let socketsOpen: Meter
    /// Pages refused at the per-viewer or per-address limit.
    let pagesRefused: Counter
    /// Pages made again from a resume token (another server went away).
    let pagesResumed: Counter
    /// Messages from pages refused (malformed, unknown control, too fast, a form refused).
    let messagesRefused: Counter
    /// Messages written to page sockets, and their bytes.
    let messagesSent: Counter
    let bytesSent: Counter
    /// Whole scenes sent again to a page (a resync, a reconnect past the replay, a new scene file).
    let wholeScenesSent: Counter
    /// Problems pages reported of their own (a script error, a patch not applied), logged.
    let clientProblems: Counter
    /// Fan-outs of a change feed (``SceneryServer/record(_:)``): how many, how many
    /// subscriptions each reached, and how long each took.
    let fanOuts: Counter
    let fanOutDeliveries: Recorder
    let fanOutDuration: CoreMetrics.Timer
    private let factory: any MetricsFactory
    private let scenes = Locked<[String: SceneSeries]>([:])
    private let modules = Locked<[String: ModuleSeries]>([:])

    /// The series of one scene's pages.
    struct SceneSeries: Sendable {
        /// Pages of the scene opened (resumed ones included).
        let pagesOpened: Counter
        /// Controls the scene's pages activated and ran, and how long each took from the
        /// page's message to the last patch it caused being written.
        let events: Counter
        let eventDuration: CoreMetrics.Timer
    }

    /// The series of one module type's loads and renders, on every page.
    struct ModuleSeries: Sendable {
        /// Loads ended, by outcome (`finished`, `failed`, `timed-out`), and how long each took.
        let loads: [SceneRegistry.LoadOutcome: Counter]
        let loadDuration: CoreMetrics.Timer
        /// Render passes (render and diff) and how long each took.
        let renderDuration: CoreMetrics.Timer
    }

    /// Whether the series go anywhere (not to swift-metrics' no-op backend): only then does
    /// the server time its scenes' loads and renders.
    let isRecording: Bool

    init(factory: any MetricsFactory) {
        self.factory = factory
        isRecording = !(factory is NOOPMetricsHandler)
        pagesOpen = Meter(label: "scenery_pages_open", factory: factory)
        socketsOpen = Meter(label: "scenery_sockets_open", factory: factory)
        pagesRefused = Counter(label: "scenery_pages_refused_total", factory: factory)
        pagesResumed = Counter(label: "scenery_pages_resumed_total", factory: factory)
        messagesRefused = Counter(label: "scenery_messages_refused_total", factory: factory)
        messagesSent = Counter(label: "scenery_messages_sent_total", factory: factory)
        bytesSent = Counter(label: "scenery_message_bytes_sent_total", factory: factory)
        wholeScenesSent = Counter(label: "scenery_whole_scenes_sent_total", factory: factory)
        clientProblems = Counter(label: "scenery_client_problems_total", factory: factory)
        fanOuts = Counter(label: "scenery_fanouts_total", factory: factory)
        fanOutDeliveries = Recorder(label: "scenery_fanout_deliveries", factory: factory)
        fanOutDuration = CoreMetrics.Timer(label: "scenery_fanout_duration_seconds", factory: factory)
    }

    /// Series that record nothing, for sessions made outside a server (tests).
    static let none = ServerMetrics(factory: NOOPMetricsHandler.instance)

    /// The series of `sceneID`'s pages, made on first use.
    func scene(_ sceneID: String) -> SceneSeries {
        scenes.withLock { scenes in
            if let series = scenes[sceneID] { return series }
            let labels = [("scene", sceneID)]
            let series = SceneSeries(
                pagesOpened: Counter(label: "scenery_pages_opened_total", dimensions: labels, factory: factory),
                events: Counter(label: "scenery_events_total", dimensions: labels, factory: factory),
                eventDuration: CoreMetrics.Timer(label: "scenery_event_duration_seconds", dimensions: labels, factory: factory))
            scenes[sceneID] = series
            return series
        }
    }
}

extension ServerMetrics: SceneRegistry.ActivityObserver {
    /// The series of module type `type` (a type the registry registered), made on first use.
    func module(_ type: String) -> ModuleSeries {
        modules.withLock { modules in
            if let series = modules[type] { return series }
            let label = ("module_type", type)
            let series = ModuleSeries(
                loads: Dictionary(
                    uniqueKeysWithValues: SceneRegistry.LoadOutcome.allCases.map { outcome in
                        (outcome, Counter(label: "scenery_module_loads_total", dimensions: [label, ("outcome", outcome.rawValue)], factory: factory))
                    }),
                loadDuration: CoreMetrics.Timer(label: "scenery_module_load_duration_seconds", dimensions: [label], factory: factory),
                renderDuration: CoreMetrics.Timer(label: "scenery_module_render_duration_seconds", dimensions: [label], factory: factory))
            modules[type] = series
            return series
        }
    }

    func record(_ activity: SceneRegistry.Activity, inScene sceneID: String) {
        switch activity {
        case .loaded(_, let type, let duration, let outcome):
            let series = module(type)
            series.loads[outcome]?.increment()
            series.loadDuration.record(duration)
        case .rendered(_, let type, let duration):
            module(type).renderDuration.record(duration)
        }
    }
}

extension CoreMetrics.Timer {
    /// Records a `Duration` (swift-metrics takes nanoseconds).
    func record(_ duration: Duration) {
        let (seconds, attoseconds) = duration.components
        recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
    }
}
