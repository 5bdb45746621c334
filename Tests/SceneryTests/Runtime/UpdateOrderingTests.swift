import SceneryTesting
import Synchronization
import Testing

@testable import Scenery

/// A recycle bin: restoring an item removes its row at once (optimistically), then the
/// service call finishes; the list becomes an empty placeholder when the last row goes.
actor BinTestModule: Module {
    static let descriptor = ModuleDescriptor(type: "Bin", summary: "Deleted items.", parameters: [ParameterSpec("items", .int, default: 12)])
    let context: ModuleContext
    var items: [Int]

    init(parameters: ModuleParameters, context: ModuleContext) throws {
        items = Array(0..<(try parameters.int("items")))
        self.context = context
    }

    func load(_ request: LoadRequest) async throws {}

    func render() -> ViewNode {
        guard !items.isEmpty else { return .empty("list", "The bin is empty.") }
        return .list("list", sections: [.init(id: "all", rows: items.map { .text("item.\($0)", "Item \($0)") })])
    }

    func restore(_ item: Int) async {
        items.removeAll { $0 == item }
        await context.setNeedsRender()
        await Task.yield()
    }
}

@Suite struct UpdateOrderingTests {
    static let stressScene = #"""
        {
          "modules": [
            { "id": "a", "type": "Stress" }, { "id": "b", "type": "Stress" },
            { "id": "c", "type": "Stress" }, { "id": "d", "type": "Stress" }
          ],
          "layout": [
            "a",
            { "id": "tabs", "tabs": [
              { "id": "one", "title": "One", "modules": ["b"] },
              { "id": "two", "title": "Two", "modules": ["c", "d"] }
            ] }
          ]
        }
        """#

    /// Runs one random schedule: several tasks at once, each a run of random actions on
    /// random modules, against a host that applies every update to its own tree.
    static func runSchedule(seed: UInt64) async throws -> (problems: [String], mirrored: ViewNode?, rendered: ViewNode, updates: Int) {
        let modules = Locked<[ModuleID: StressTestModule]>([:])
        var registry = SceneRegistry()
        registry.register(StressTestModule.self) { _, context in
            let module = StressTestModule(context: context)
            modules.withLock { $0[context.id] = module }
            return module
        }
        registry.addScene(id: "stress", source: stressScene)
        let host = MirroringHost()
        let scene = try await registry.assemble("stress", for: SceneContext(viewer: nil), host: host)
        await host.attach(to: scene)
        let all = modules.withLock { $0 }
        var random = SeededRandom(seed: seed)
        let plans: [[UInt64]] = (0..<4).map { _ in (0..<6).map { _ in random.next() } }
        await withTaskGroup(of: Void.self) { group in
            for plan in plans {
                group.addTask {
                    for roll in plan {
                        let id: ModuleID = ["a", "b", "c", "d"][Int(roll % 4)]
                        let action = roll / 4 % 16
                        switch action {
                        case 0..<8: await all[id]?.change(roll / 64)
                        case 8: await scene.send(Event(SceneEvents.loadMore, from: NodeID("\(id)/more"), payload: ["module": .string(id.rawValue)]))
                        case 9: await scene.send(Event(SceneEvents.refresh, from: NodeID("\(id)/refresh"), payload: ["module": .string(id.rawValue)]))
                        case 10, 11:
                            let tab = action == 10 ? "one" : "two"
                            await scene.send(Event(SceneEvents.selectTab, from: "tabs", payload: ["tabs": "tabs", "tab": .string(tab)]))
                        case 12, 13:
                            let window = action == 12 ? RowWindow(start: Int(roll / 64 % 3), count: 2) : nil
                            await scene.setWindow(window, for: id)
                        case 14: await host.attach(to: scene)  // a host that resynchronises
                        default: await Task.yield()
                        }
                    }
                }
            }
        }
        let rendered = await scene.render()
        return (host.problems, host.tree, rendered, host.appliedUpdates)
    }

    /// A thousand schedules, four at a time: each is a scene of its own, so they are
    /// independent, and one after another they were the suite's longest test (a core idle
    /// under the thread sanitizer while the rest had finished).
    @Test func randomConcurrentActionsAlwaysReachTheHostInAnOrderItCanApply() async throws {
        let applied = try await withThrowingTaskGroup(of: Int.self) { group in
            var seeds = (1...1_000 as ClosedRange<UInt64>).makeIterator()
            func runNext() {
                guard let seed = seeds.next() else { return }
                group.addTask {
                    let result = try await Self.runSchedule(seed: seed)
                    try #require(result.problems.isEmpty, "schedule \(seed): \(result.problems)")
                    try #require(result.mirrored == result.rendered, "schedule \(seed): the host's tree differs from a fresh rendering")
                    return result.updates
                }
            }
            for _ in 0..<4 { runNext() }
            var applied = 0
            while let updates = try await group.next() {
                applied += updates
                runNext()
            }
            return applied
        }
        #expect(applied > 5_000, "the schedules exercised the update stream (\(applied) updates applied)")
    }

    @Test func concurrentOptimisticActionsOfOneModuleApplyInTheOrderDelivered() async throws {
        for _ in 0..<40 {
            let box = ModuleBox()
            var registry = SceneRegistry()
            registry.register(BinTestModule.self) { parameters, context in
                let module = try BinTestModule(parameters: parameters, context: context)
                box.set(module)
                return module
            }
            registry.addScene(id: "bin", source: #"{ "modules": [ { "id": "bin", "type": "Bin" } ] }"#)
            let host = RecordingHost()
            let scene = try await registry.assemble("bin", for: SceneContext(viewer: nil), host: host)
            let module: BinTestModule = try #require(box.get())
            let tree = PatchableTree(await scene.takeBaseline().node)
            await withTaskGroup(of: Void.self) { group in
                for item in 0..<12 {
                    group.addTask { await module.restore(item) }
                }
            }
            for update in host.updates { try tree.apply(update.patches) }
            #expect(tree.root == (await scene.render()))
        }
    }
}

/// A module that changes in every way a module can: rows liked one at a time (single-node
/// renders), rows added, removed and moved (whole renders), emptied, paged, refreshed and
/// windowed.
actor StressTestModule: Module {
    static let descriptor = ModuleDescriptor(type: "Stress", summary: "Changes every way it can.")
    let context: ModuleContext
    var rows: [Int] = []
    var likes: [Int: Int] = [:]
    var nextRow = 0
    var isPaging = false

    init(context: ModuleContext) { self.context = context }

    func load(_ request: LoadRequest) async throws {
        if request == .nextPage {
            isPaging = true
            await context.setNeedsRender()
            await Task.yield()
            isPaging = false
            append(3)
        } else {
            rows = []
            append(4)
        }
    }

    private func append(_ count: Int) {
        for _ in 0..<count {
            rows.append(nextRow)
            nextRow += 1
        }
    }

    func row(_ item: Int) -> ViewNode {
        .stack("row.\(item)", axis: .horizontal, [.text("row.\(item).title", "Row \(item)"), .text("row.\(item).likes", "Likes: \(likes[item, default: 0])")])
    }

    private func content(_ section: ViewNode.Section) -> ViewNode {
        let list = ViewNode.list("list", sections: [section])
        return isPaging ? .stack("content", [list, .loading("paging", "Loading…")]) : .stack("content", [list])
    }

    func render() -> ViewNode {
        rows.isEmpty ? .empty("content", "Nothing.") : content(.init(id: "all", rows: rows.map(row)))
    }

    func render(window: RowWindow) -> ViewNode {
        rows.isEmpty ? .empty("content", "Nothing.") : content(.windowed(id: "all", total: rows.count, window: window) { row(rows[$0]) })
    }

    func render(_ id: NodeID) -> ViewNode? {
        guard id.rawValue.hasPrefix("row."), let item = Int(id.rawValue.dropFirst(4)), rows.contains(item) else { return nil }
        return row(item)
    }

    /// One random change, then the render request that goes with it.
    func change(_ roll: UInt64) async {
        switch roll % 6 {
        case 0, 1:
            guard !rows.isEmpty else { return await addRow(roll) }
            let chosen = rows[Int(roll / 7 % UInt64(rows.count))]
            likes[chosen, default: 0] += 1
            await context.setNeedsRender(["row.\(chosen)"])
        case 2: await addRow(roll)
        case 3:
            guard !rows.isEmpty else { return }
            rows.remove(at: Int(roll / 7 % UInt64(rows.count)))
            await context.setNeedsRender()
        case 4:
            guard rows.count > 1 else { return }
            let moved = rows.remove(at: Int(roll / 7 % UInt64(rows.count)))
            rows.insert(moved, at: Int(roll / 11 % UInt64(rows.count + 1)))
            await context.setNeedsRender()
        default:
            rows = roll % 4 == 0 ? [] : rows.reversed()
            await context.setNeedsRender()
        }
    }

    private func addRow(_ roll: UInt64) async {
        rows.insert(nextRow, at: Int(roll / 13 % UInt64(rows.count + 1)))
        nextRow += 1
        await context.setNeedsRender()
    }
}
