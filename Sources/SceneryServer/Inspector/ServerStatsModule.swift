import Scenery

/// The live page of a development server (`scenery serve --inspect`,
/// ``SceneryServer/Configuration/enablesInspector``): open pages, how soon an event's first
/// patch is written and how long events take (p50 and p99), how long fan-outs take, and the
/// module types slowest to load. A scene of its own (``sceneID``), so it is refreshed live by
/// the page protocol like any page: while shown, it looks at the figures every
/// ``refreshInterval`` and renders again when they moved.
///
/// It shows aggregates only, no person's data, and exists only on a server with the
/// inspector on (a loopback address, checked at start-up).
actor ServerStatsModule: Module {
    static let descriptor = ModuleDescriptor(
        type: "ServerStatsModule", summary: "A development server's figures, live: the inspector's page (serve --inspect).")

    /// The scene the server adds beside the app's when the inspector is on.
    static let sceneID = "scenery-stats"
    static let sceneSource = #"{ "title": "This server, live", "modules": [ { "id": "stats", "type": "ServerStatsModule" } ] }"#
    /// How often the page looks whether the figures moved.
    static let refreshInterval = Duration.seconds(1)

    private let stats: InspectorStats
    private let openPages: @Sendable () async -> Int
    private let context: ModuleContext
    nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }
    private var shown = InspectorStats.Figures()
    private var pages = 0
    private var refresher: Task<Void, Never>?

    init(stats: InspectorStats, openPages: @escaping @Sendable () async -> Int, context: ModuleContext) {
        self.stats = stats
        self.openPages = openPages
        self.context = context
    }

    func load(_ request: LoadRequest) async throws {
        shown = stats.current
        pages = await openPages()
    }

    func appear() async {
        refresher?.cancel()
        refresher = Task { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.refreshInterval)
                guard let module = self else { return }
                await module.refresh()
            }
        }
    }

    func disappear() async {
        refresher?.cancel()
        refresher = nil
    }

    /// Renders again when the figures or the count of open pages moved.
    func refresh() async {
        let figures = stats.current
        let count = await openPages()
        guard figures.version != shown.version || count != pages else { return }
        shown = figures
        pages = count
        await context.setNeedsRender()
    }

    func inspectableState() -> [String: JSONValue] {
        ["version": .int(shown.version), "openPages": .int(pages)]
    }

    func render() -> ViewNode {
        let slowest = shown.loads.compactMap { type, samples in samples.percentile(0.99).map { (type, $0, samples.total) } }
            .sorted { $0.1 > $1.1 }.prefix(InspectorStats.listedModules)
        let rows: [ViewNode] = slowest.map { type, p99, loads in
            .text(NodeID("load.\(type)"), "\(type): p99 \(PageTrace.microseconds(p99)) (\(loads) load\(loads == 1 ? "" : "s"))")
        }
        return .stack(
            "stats",
            [
                .text("pages", "Open pages: \(pages)"),
                .text("first-patch", "Event → first patch: " + Self.percentiles(of: shown.firstPatches, counting: "event")),
                .text("events", "Events, start to end: " + Self.percentiles(of: shown.events, counting: "event")),
                .text(
                    "fan-outs",
                    "Fan-outs: " + Self.percentiles(of: shown.fanOuts, counting: "fan-out")
                        + (shown.fanOuts.total > 0
                            ? "; the last reached \(shown.lastFanOutDeliveries) subscriber\(shown.lastFanOutDeliveries == 1 ? "" : "s")" : "")),
                .list(
                    "slowest",
                    sections: [
                        .init(id: "loads", header: "Slowest modules to load", rows: rows.isEmpty ? [.text("none", "No module has loaded yet.")] : rows)
                    ]),
            ])
    }

    /// `p50 412 µs · p99 1204 µs (of the newest 37 events)`, or `none yet`.
    static func percentiles(of samples: LatencySamples, counting noun: String) -> String {
        guard let p50 = samples.percentile(0.5), let p99 = samples.percentile(0.99) else { return "none yet" }
        return
            "p50 \(PageTrace.microseconds(p50)) · p99 \(PageTrace.microseconds(p99)) (of the newest \(samples.count) \(noun)\(samples.count == 1 ? "" : "s"))"
    }
}

extension SceneRegistry {
    /// Adds the inspector's live page (``ServerStatsModule``) and has `stats` time the
    /// registry's module loads. Returns whether the page was added: a scene of that id already
    /// there (the app's) keeps its place.
    mutating func addInspectorPage(_ stats: InspectorStats, openPages: @escaping @Sendable () async -> Int) -> Bool {
        if !activityObservers.contains(where: { ($0 as? InspectorStats) === stats }) { activityObservers.append(stats) }
        guard !sceneIDs.contains(ServerStatsModule.sceneID) else { return false }
        register(ServerStatsModule.self) { _, context in ServerStatsModule(stats: stats, openPages: openPages, context: context) }
        return addScene(id: ServerStatsModule.sceneID, source: ServerStatsModule.sceneSource).isEmpty
    }
}
