import Foundation

/// A live scene: module instances assembled from a scene definition for one context.
///
/// Get one from ``SceneRegistry/assemble(_:for:host:on:)``. The host drives it:
///
/// ```swift
/// let scene = try await registry.assemble("user-profile", for: context, host: host)
/// await scene.appear()                          // modules may subscribe now
/// print(TextRenderer().render(await scene.render()))
/// let outcome = await scene.send(Event("user.unfollow", from: "info/follow"))
/// await scene.leave()                           // cancels work; nothing updates after
/// ```
///
/// A scene lays its modules out, starts them concurrently, routes events (module → scene rules → host),
/// and re-renders a module's subtree when the module says it changed, telling the host through
/// ``SceneHost/sceneDidUpdate(_:)``. A module that fails or times out shows an error block with a retry
/// control; the rest render as usual.
public actor SceneInstance {
    /// The scene's id (its file name).
    public nonisolated let sceneID: String
    /// The name of the variant chosen for the context.
    public nonisolated let variant: String
    /// The context the scene was assembled for.
    public nonisolated let context: SceneContext
    /// The arm of each experiment that takes part for the context, in the scene file's order; empty when none does (<doc:Experiments>).
    package nonisolated let assignments: [ExperimentAssignment]
    /// The isolation the scene runs in, shared with the modules that name it and the host's page (``PageIsolation``).
    public nonisolated let page: PageIsolation
    public nonisolated var unownedExecutor: UnownedSerialExecutor { page.unownedExecutor }

    nonisolated let layout: [LayoutItem]
    nonisolated let rules: [EventRule]
    nonisolated let host: any SceneHost
    nonisolated let isPermanentFailure: @Sendable (any Error) -> Bool
    /// Module ids in layout order.
    private nonisolated let moduleOrder: [ModuleID]
    /// Where scene files place things (for `inspect(_:)`), and who records the scene's activity.
    nonisolated let tooling: SceneTooling

    var slots: [ModuleID: ModuleSlot]
    /// The selected tab of each tab switch (what the next rendering shows).
    var tabSelection: [String: String] = [:]
    var phase: Phase = .created
    private(set) var isShown = false
    /// The module work running under deadlines, which leaving cancels.
    private var work = WorkInFlight()
    /// The host's copy of the scene, which every update is diffed against: the frame of
    /// each module it shows, and the tab each switch shows (see `SceneInstance+Updates`).
    var frames: [ModuleID: RenderedFrame] = [:]
    var shownTabs: [String: String] = [:]
    var hostHasTree = false
    /// Updates made but not yet handed to the host, numbered, oldest first.
    var outbox = SceneOutbox()
    /// The delivery loop while it runs (see `SceneInstance+Updates`).
    var delivery: Task<Void, Never>?
    /// The render passes of each module: which run, and which may still commit.
    var passes = RenderPasses()
    /// How often each module said it changed (a rendering that raced a change is redone),
    /// and what its changes mean, waiting for its next update.
    var changes = ModuleChanges()
    /// The row windows hosts asked for, by module.
    var windows: [ModuleID: RowWindow] = [:]
    /// The first loads (see `SceneInstance+Streaming`): how many run, and the starter's signal.
    var firstLoads = FirstLoads()
    /// This scene's page, for the changes its person's actions make (``ChangeSource``).
    public nonisolated let origin = ChangeSource()
    /// What was seen, for impressions and exposures (see `SceneInstance+Impressions`).
    var impressions = ImpressionTracker()
    nonisolated let impressionSink: (any ImpressionSink)?
    /// When a node reported visible counts as seen (the registry's `SceneRegistry.impressionRule`).
    package nonisolated let impressionRule: ImpressionRule
    /// The modules whose rows count impressions of their own
    /// (``ModuleDescriptor/countsRowImpressions``): a host reports their rows' visibility too.
    public nonisolated let modulesCountingRows: Set<ModuleID>
    /// How each module's content moves when it changes, as the scene file declares
    /// (``Transitions``); a module not here does not move.
    package nonisolated let transitions: [ModuleID: Transitions]
    /// How many rows each list shows first, for the modules whose descriptor has an `int`
    /// parameter named `pageSize` (the bundled lists do): a host that holds a window of a
    /// long list starts with at most this many rows, as the scene file asks, and moves a
    /// larger window as the person scrolls.
    public nonisolated let pageSizes: [ModuleID: Int]
    /// The outcomes of the most recent routed events (at most ``keptEventOutcomes``, about
    /// ``keptEventBytes`` of their text), oldest first: what a test or a debugging host looks
    /// at, bounded so that a page open for a day does not grow with every tap. A payload's
    /// texts longer than 120 characters are cut here (``send(_:)`` returns the whole outcome).
    public var eventLog: [EventOutcome] { recentEvents.outcomes }
    var recentEvents = EventLog(mostOutcomes: keptEventOutcomes, mostBytes: keptEventBytes)

    /// How many event outcomes ``eventLog`` keeps.
    public static let keptEventOutcomes = 64

    /// About how many bytes of text ``eventLog`` keeps (names, payload texts, routes).
    public static let keptEventBytes = 16_384

    enum Phase: Sendable { case created, started, left }

    /// A rendered module frame and, once needed, where each of its nodes is.
    struct RenderedFrame: Sendable {
        var node: ViewNode
        /// Where the frame's list rows are, made when a node is first rendered alone.
        var rows: RowIndex?
        /// Where the frame's controls are, made when a host first looks one up.
        var controls: ControlIndex? = nil
    }

    struct ModuleSlot: Sendable {
        let instance: ModuleInstance
        let descriptor: ModuleDescriptor
        let module: any Module
        let timeout: Duration
        /// The owner-only actions of the module's descriptor, by event name: the id of the
        /// only user who may take each (`nil` when its parameter names nobody).
        var actionOwners: [String: String?] = [:]
        var status: ModuleStatus = .idle
        var failure: String?
        /// Whether trying the failed load again may help (not for a missing record).
        var isRetryable = true
        /// The module's `pageSize` parameter, when its descriptor has one.
        var pageSize: Int?
    }

    init(
        sceneID: String, variant: String, assignments: [ExperimentAssignment] = [], context: SceneContext, layout: [LayoutItem], rules: [EventRule],
        slots: [ModuleSlot], host: any SceneHost, isPermanentFailure: @escaping @Sendable (any Error) -> Bool = { $0 is any PermanentError },
        impressionSink: (any ImpressionSink)? = nil, impressionRule: ImpressionRule = .standard, page: PageIsolation = PageIsolation(),
        tooling: SceneTooling = SceneTooling()
    ) {
        self.page = page
        self.tooling = tooling
        self.impressionSink = impressionSink
        self.impressionRule = impressionRule
        self.modulesCountingRows = Set(slots.filter(\.descriptor.countsRowImpressions).map(\.instance.id))
        self.pageSizes = Dictionary(uniqueKeysWithValues: slots.compactMap { slot in slot.pageSize.map { (slot.instance.id, $0) } })
        self.transitions = Dictionary(
            uniqueKeysWithValues: slots.compactMap { slot in
                slot.instance.transitions.flatMap { $0.effects.isEmpty ? nil : (slot.instance.id, $0) }
            })
        self.isPermanentFailure = isPermanentFailure
        self.sceneID = sceneID
        self.variant = variant
        self.assignments = assignments
        self.context = context
        self.layout = layout
        self.rules = rules
        self.host = host
        self.slots = Dictionary(uniqueKeysWithValues: slots.map { ($0.instance.id, $0) })
        self.moduleOrder = layout.flatMap(\.moduleIDs)
        for case .tabs(let id, let tabs) in layout {
            tabSelection[id] = tabs.first?.id
        }
    }

    // MARK: Lifecycle

    /// Starts every module's first load concurrently and returns when all have finished,
    /// failed or timed out: the scene is ready in about the time of its slowest module.
    ///
    /// Calling it again does nothing.
    public func start() async {
        guard phase == .created else { return }
        phase = .started
        await startFirstLoads()
        await waitForFirstLoads()
    }

    /// Tells the visible modules they are shown. Modules in unselected tabs appear when
    /// their tab is selected.
    public func appear() async {
        guard phase != .left, !isShown else { return }
        isShown = true
        for id in visibleModules { await slots[id]?.module.appear() }
    }

    /// Tells the visible modules they are no longer shown.
    public func disappear() async {
        guard phase != .left, isShown else { return }
        isShown = false
        for id in visibleModules { await slots[id]?.module.disappear() }
    }

    /// Leaves the scene: visible modules disappear, in-flight loads are cancelled, and no
    /// update or event is delivered afterwards.
    public func leave() async {
        guard phase != .left else { return }
        await disappear()
        phase = .left
        work.cancelAll()
        outbox.takeBaseline()  // nothing is delivered any more
        firstLoads.end()  // the starter goes on
    }

    /// Whether ``leave()`` was called.
    public var hasLeft: Bool { phase == .left }

    /// The runtime's view of a module: loading, ready or failed.
    public func status(of module: ModuleID) -> ModuleStatus? {
        slots[module]?.status
    }

    /// Why the scene has nothing to show, when every module it shows failed for a reason
    /// trying again cannot fix (``SceneRegistry/isPermanentFailure``: a user or blog that
    /// does not exist): the first such module's message; `nil` when any shown module shows
    /// something, still loads, or may load after a retry. A web host answers such a page
    /// with one "not found" page (status 404) instead of a failure per module.
    public var permanentFailure: String? {
        let shown = visibleModules.compactMap { slots[$0] }
        guard !shown.isEmpty, shown.allSatisfy({ $0.status == .failed && !$0.isRetryable }) else { return nil }
        return shown.first?.failure
    }

    /// What the page is about, in a person's words: the first shown module's
    /// ``Module/pageTitle()`` (a profile's person, a blog's title), or `nil` when none names
    /// it (a host then uses the scene file's title).
    public func pageTitle() async -> String? {
        for id in visibleModules {
            guard let slot = slots[id], slot.status == .ready, let title = await slot.module.pageTitle() else { continue }
            let trimmed = title.trimmingCharacters(in: .whitespacesAndNewlines)
            if !trimmed.isEmpty { return trimmed }
        }
        return nil
    }

    /// The modules whose first load (or retry) is still in flight, in layout order.
    public var loadingModules: [ModuleID] {
        moduleOrder.filter { slots[$0]?.status == .loading }
    }

    /// The type name of a module in this scene.
    public func moduleType(of module: ModuleID) -> String? {
        slots[module]?.descriptor.type
    }

    /// Every module of the scene, in layout order (those in unselected tabs too).
    public nonisolated var modules: [ModuleID] { moduleOrder }

    /// The modules currently shown: every module except those in unselected tabs.
    public var visibleModules: [ModuleID] {
        layout.flatMap { item -> [ModuleID] in
            switch item {
            case .module(let id): [id]
            case .tabs(let id, let tabs): tabs.first { $0.id == tabSelection[id] }?.modules ?? []
            }
        }
    }

    /// The id of the selected tab of a tab switch.
    public func selectedTab(of tabSwitch: String) -> String? {
        tabSelection[tabSwitch]
    }

    /// Runs a module's work under a deadline, cancellable by ``leave()`` while it runs (and by
    /// cancelling the calling task).
    func run(timeout: Duration, _ work: @escaping @Sendable () async throws -> Void) async -> LoadRace.Outcome {
        let workID = self.work.reserve()
        let race = Locked<LoadRace?>(nil)
        let outcome = await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<LoadRace.Outcome, Never>) in
                let started = LoadRace.start(timeout: timeout, work) { continuation.resume(returning: $0) }
                race.withLock { $0 = started }
                self.work.add(started, as: workID)
                if Task.isCancelled { started.cancel() }
            }
        } onCancel: {
            race.withLock { $0 }?.cancel()
        }
        self.work.remove(workID)
        return outcome
    }

    /// Starts every module's first load, each in its own task under its deadline; the last
    /// one to end ends the first loads (`firstLoads`). The load's own task records its outcome:
    /// no task waits for it.
    func startFirstLoads() async {
        var loads: [(ModuleID, StartedLoad)] = []
        for id in moduleOrder {
            if let load = await prepareLoad(id, .initial) { loads.append((id, load)) }
        }
        firstLoads.begin(loads.count)
        for (id, load) in loads {
            let workID = work.reserve()
            let race = LoadRace.start(timeout: load.slot.timeout, load.work) { outcome in
                await self.endFirstLoad(id, load, outcome, workID: workID)
            }
            work.add(race, as: workID)
        }
    }

    private func endFirstLoad(_ id: ModuleID, _ load: StartedLoad, _ outcome: LoadRace.Outcome, workID: Int) async {
        work.remove(workID)
        await finishLoad(id, .initial, load, outcome)
        firstLoads.oneEnded()
    }
}
