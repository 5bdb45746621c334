import SceneryTesting
import Synchronization
import Testing

@testable import Scenery

/// A long list that can re-render one row and honour a row window.
actor LongListModule: Module {
    static let descriptor = ModuleDescriptor(type: "LongList", summary: "Many rows.", parameters: [ParameterSpec("rows", .int, default: 1000)])
    let count: Int
    var likes: [Int]
    let context: ModuleContext
    var fullRenders = 0
    /// The windows the runtime asked the module to load, in order.
    var loadedWindows: [RowWindow] = []

    init(parameters: ModuleParameters, context: ModuleContext) throws {
        count = try parameters.int("rows")
        likes = Array(repeating: 0, count: count)
        self.context = context
    }

    func load(_ request: LoadRequest) async throws {}

    func row(_ index: Int) -> ViewNode {
        .stack("row.\(index)", axis: .horizontal, [.text("row.\(index).title", "Row \(index)"), .text("row.\(index).likes", "Likes: \(likes[index])")])
    }

    func render() -> ViewNode {
        let rows = (0..<count).map { row($0) }
        fullRenders += 1
        return .list("list", sections: [.init(id: "all", rows: rows)])
    }

    func render(window: RowWindow) -> ViewNode {
        .list("list", sections: [.windowed(id: "all", total: count, window: window, row: row)])
    }

    func load(window: RowWindow) async throws {
        loadedWindows.append(window)
    }

    func render(_ id: NodeID) -> ViewNode? {
        guard id.rawValue.hasPrefix("row."), let index = Int(id.rawValue.dropFirst(4)), likes.indices.contains(index) else { return nil }
        return row(index)
    }

    func like(_ index: Int, rowOnly: Bool) async {
        likes[index] += 1
        if rowOnly { await context.setNeedsRender(["row.\(index)"]) } else { await context.setNeedsRender() }
    }
}

@Suite(.timeLimit(.minutes(5))) struct IncrementalUpdateTests {
    /// A registry with scene `long`: one `LongList` of `rows` rows, handed to `box` when made.
    func registry(rows: Int, box: ModuleBox) -> SceneRegistry {
        var registry = SceneRegistry()
        registry.register(LongListModule.self) { parameters, context in
            let module = try LongListModule(parameters: parameters, context: context)
            box.set(module)
            return module
        }
        registry.addScene(id: "long", source: #"{ "modules": [ { "id": "list", "type": "LongList", "params": { "rows": \#(rows) } } ] }"#)
        return registry
    }

    func scene(rows: Int = 1000) async throws -> (SceneInstance, RecordingHost, LongListModule) {
        let box = ModuleBox()
        let registry = registry(rows: rows, box: box)
        let host = RecordingHost()
        let scene = try await registry.assemble("long", for: SceneContext(viewer: nil), host: host)
        let module: LongListModule? = box.get()
        return (scene, host, try #require(module))
    }

    @Test func aFullReRenderSendsPatchesForWhatChangedOnly() async throws {
        let (scene, host, module) = try await scene()
        let before = PatchableTree(await scene.takeBaseline().node)
        host.reset()
        await module.like(7, rowOnly: false)
        let update = try #require(host.updates.first)
        #expect(update.patches == [.update("list/row.7.likes", ElementProperties(kind: .text("Likes: 1", role: .body)))])
        try before.apply(update.patches)
        #expect(before.root == (await scene.render()))
    }

    @Test func aOneRowChangeRendersOneRow() async throws {
        let (scene, host, module) = try await scene()
        let tree = PatchableTree(await scene.takeBaseline().node)
        let rendersBefore = await module.fullRenders
        host.reset()
        await module.like(7, rowOnly: true)
        await module.like(7, rowOnly: true)
        #expect(await module.fullRenders == rendersBefore, "no full re-render")
        #expect(host.updates.map(\.node.id) == ["list/row.7", "list/row.7"])
        for update in host.updates { try tree.apply(update.patches) }
        #expect(tree.root == (await scene.render()), "the host's tree matches a full rendering")
        #expect(tree.root.node(withID: "list/row.7.likes")?.visibleTexts == ["Likes: 2"])
    }

    @Test func duplicateIdsFromAModuleReachTheHostAsDiagnostics() async throws {
        actor Sloppy: Module {
            static let descriptor = ModuleDescriptor(type: "Sloppy", summary: "Repeats ids.")
            let context: ModuleContext
            var count = 2
            init(context: ModuleContext) { self.context = context }
            func load(_ request: LoadRequest) async throws {}
            func render() -> ViewNode { .list("list", sections: [.init(id: "all", rows: (0..<count).map { .text("row", "Row \($0)") })]) }
            func grow() async {
                count += 1
                await context.setNeedsRender()
            }
        }
        let box = ModuleBox()
        var registry = SceneRegistry()
        registry.register(Sloppy.self) { _, context in
            let module = Sloppy(context: context)
            box.set(module)
            return module
        }
        registry.addScene(id: "s", source: #"{ "modules": [ { "id": "m", "type": "Sloppy" } ] }"#)
        let host = RecordingHost()
        let scene = try await registry.assemble("s", for: SceneContext(viewer: nil), host: host)
        let tree = PatchableTree(await scene.takeBaseline().node)
        let sloppy: Sloppy? = box.get()
        await sloppy?.grow()
        let update = try #require(host.updates.last)
        #expect(update.diagnostics == ["The id 'm/row' is used more than once; ids must be unique in a tree. Its container is replaced whole."])
        try tree.apply(update.patches)
        #expect(tree.root == (await scene.render()))
    }

    @Test func aWindowRendersOnlyItsRows() async throws {
        let (scene, host, module) = try await scene(rows: 100_000)
        host.reset()
        await scene.setWindow(RowWindow(start: 500, count: 50), for: "list")
        #expect(host.updates.isEmpty, "nothing to update before the host has a baseline")
        let tree = await scene.takeBaseline().node
        #expect(await module.fullRenders == 0, "the 100,000 rows were never all rendered")
        guard case .list(_, let sections)? = tree.node(withID: "list/list")?.kind else {
            Issue.record("no list")
            return
        }
        #expect(sections[0].rows.count == 50)
        #expect(sections[0].rows.first?.id == "list/row.500")
        #expect(sections[0].firstRowIndex == 500)
        #expect(sections[0].totalRowCount == 100_000)
        // Scrolling: the next window arrives as patches.
        let kept = PatchableTree(tree)
        await scene.setWindow(RowWindow(start: 520, count: 50), for: "list")
        #expect(host.updates.count == 1)
        try kept.apply(host.updates[0].patches)
        #expect(kept.root == (await scene.render()))
        #expect(host.updates[0].patches.count == 41, "20 rows leave, 20 arrive, the section's first index changes")
        #expect(await module.loadedWindows == [RowWindow(start: 500, count: 50), RowWindow(start: 520, count: 50)], "each loaded before it rendered")
    }

    @Test func aWindowMovedWhileTheFirstLoadRunsIsFetchedWhenItEnds() async throws {
        let module = GatedListModule()
        var registry = SceneRegistry()
        // The load waits for the test, however long a loaded machine takes to get there (under
        // the 10-second default, a starved run timed the load out and fetched no window).
        registry.defaultModuleTimeout = .seconds(600)
        registry.register(GatedListModule.self) { _, _ in module }
        registry.addScene(id: "gated", source: #"{ "modules": [ { "id": "list", "type": "GatedList" } ] }"#)
        let scene = try registry.instantiate("gated", for: SceneContext(viewer: nil), host: RecordingHost())
        await scene.setWindow(RowWindow(start: 0, count: 10), for: "list")
        let started = Task { await scene.start() }
        while await !module.loadBegan { await Task.yield() }
        await scene.setWindow(RowWindow(start: 40, count: 10), for: "list")
        #expect(await module.loadedWindows.isEmpty, "nothing is fetched for a module still loading")
        await module.open()
        await started.value
        #expect(await module.loadedWindows == [RowWindow(start: 0, count: 10), RowWindow(start: 40, count: 10)], "the newest window, once loaded")
    }

    @Test func aWindowSetBeforeTheSceneStartsIsWhatTheFirstLoadFetchesAndShows() async throws {
        let box = ModuleBox()
        let host = RecordingHost()
        let scene = try registry(rows: 5000, box: box).instantiate("long", for: SceneContext(viewer: nil), host: host)
        await scene.setWindow(RowWindow(start: 4990, count: 50), for: "list")
        #expect(host.updates.isEmpty)
        await scene.start()
        let module: LongListModule = try #require(box.get())
        #expect(await module.loadedWindows == [RowWindow(start: 4990, count: 50)])
        guard case .list(_, let sections)? = await scene.render().node(withID: "list/list")?.kind else {
            Issue.record("no list")
            return
        }
        #expect(sections[0].rows.map(\.id) == (4990..<5000).map { NodeID("list/row.\($0)") }, "the window's rows, clipped to the list")
        #expect(await module.fullRenders == 0)
    }
}

/// A long list whose first load waits until the test opens its gate.
actor GatedListModule: Module {
    static let descriptor = ModuleDescriptor(type: "GatedList", summary: "Waits to load.")
    private(set) var loadBegan = false
    private(set) var loadedWindows: [RowWindow] = []
    private var gate: AsyncStream<Void>.Continuation?
    private let opened: AsyncStream<Void>

    init() {
        let (stream, continuation) = AsyncStream.makeStream(of: Void.self)
        opened = stream
        gate = continuation
    }

    func open() { gate?.yield() }

    func load(_ request: LoadRequest) async throws {
        loadBegan = true
        for await _ in opened { break }
    }

    func load(window: RowWindow) async throws { loadedWindows.append(window) }

    func render() -> ViewNode { .list("list", sections: [.init(id: "all", rows: [])]) }
}

/// Hands a module the registry created to the test that drives it.
final class ModuleBox: Sendable {
    private let module = Locked<(any Module)?>(nil)
    func set(_ value: any Module) { module.withLock { $0 = value } }
    func get<M: Module>() -> M? { module.withLock { $0 as? M } }
}
