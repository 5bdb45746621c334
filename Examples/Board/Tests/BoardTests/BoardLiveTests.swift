import Board
import BoardStore
import Foundation
import Scenery
import SceneryLive
import SceneryTesting
import Testing

/// The board's scene over its store: two members' pages of one board, live; the owner's
/// powers; each write once, across processes.
@Suite(.timeLimit(.minutes(5))) struct BoardLiveTests {
    /// A database file of its own, in a fresh folder.
    static func databasePath() throws -> String {
        let folder = FileManager.default.temporaryDirectory.appending(path: "board-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        return folder.appending(path: "board.sqlite").path
    }

    /// The app's scene files and module over `store`, with the scene's experiment pinned.
    static func registry(over store: SQLiteBoardStore) throws -> SceneRegistry {
        var registry = SceneRegistry()
        registry.register(TaskListModule.self) { parameters, context in try TaskListModule(parameters: parameters, context: context, board: store) }
        let problems = try registry.loadScenes(in: BoardScenes.directory)
        #expect(problems.isEmpty, "\(problems)")
        return registry
    }

    /// `viewer`'s page of Ada's board (member 1), shown, oldest task first.
    static func page(of viewer: String, in registry: SceneRegistry) async throws -> (scene: SceneInstance, host: RecordingHost) {
        let host = RecordingHost()
        let context = SceneContext(viewer: viewer, arguments: ["owner": .string("1")], armOverrides: ["task-order": "oldest-first"])
        let scene = try await registry.assemble("board", for: context, host: host)
        await scene.appear()
        _ = await scene.takeBaseline()
        host.reset()
        return (scene, host)
    }

    @Test func aMembersTickReachesTheOwnersPageAndOnlyTheOwnerCanRemove() async throws {
        let store = try SQLiteBoardStore(path: try Self.databasePath())
        let registry = try Self.registry(over: store)
        let (ada, grace) = (try await Self.page(of: "1", in: registry), try await Self.page(of: "2", in: registry))
        #expect(await ada.scene.render().node(withID: "tasks/task.1.remove") != nil, "the owner may remove")
        #expect(await grace.scene.render().node(withID: "tasks/task.1.remove") == nil, "a member may not")
        let tick = try #require(await grace.scene.render().action(withID: "tasks/task.1.toggle"))
        await grace.scene.send(tick.event)
        let reached = await ada.host.waitForUpdates { updates in
            updates.contains { $0.node.node(withID: "tasks/task.1.title")?.visibleTexts == ["✓ Plan the offsite"] }
        }
        #expect(reached, "Grace's tick reached Ada's page")
        #expect(try await store.tasks(on: "1").first?.isDone == true)
        await #expect(throws: DataError.notPermitted("Only the board's owner removes its tasks.")) {
            try await store.remove(task: 1, from: "1", by: "2")
        }
        for page in [ada, grace] { await page.scene.leave() }
    }

    @Test func theOwnerRemovesATaskOnceTheSceneLetsItThrough() async throws {
        let store = try SQLiteBoardStore(path: try Self.databasePath())
        let harness = try ModuleHarness(TaskListModule.self, parameters: ["owner": "1"], viewer: "1", id: "tasks") {
            try TaskListModule(parameters: $0, context: $1, board: store)
        }
        try await harness.load { try RenderExpectation.shows("Book the room").verify($0) }
        try await harness.tap("task.2.remove") { try RenderExpectation.hides("Book the room").verify($0) }
        try await harness.receiveEvent("task.remove") { #expect($0.payload["title"] == "Book the room") }
        for _ in 0..<2 {  // shown at once, then again once written
            try await harness.receiveUpdate { try RenderExpectation.hides("Book the room").verify($0) }
        }
        try harness.finish()
        #expect(try await store.tasks(on: "1").map(\.title) == ["Plan the offsite", "Order the cake"])
    }

    @Test func aWriteInOneProcessReachesThePagesOfAnother() async throws {
        let path = try Self.databasePath()
        let (server, other) = (try SQLiteBoardStore(path: path), try SQLiteBoardStore(path: path))  // two processes, as SQLite sees them
        let page = try await Self.page(of: "2", in: try Self.registry(over: server))
        try other.addTask("Send the invitations", on: "1")
        #expect(await page.host.waitForUpdates { $0.contains { $0.node.allNodes.contains { $0.visibleTexts == ["Send the invitations"] } } })
        await page.scene.leave()
    }

    /// The contract every store of Scenery's keeps, checked by SceneryTesting.
    @Test func theBoardStoreKeepsScenerysStoreContract() async throws {
        let store = try SQLiteBoardStore(path: try Self.databasePath())
        let problems = await StoreConformance.problems(feed: store, ledger: store, entities: (.board("1"), .board("2"))) { change in
            guard case .board(let owner) = change else { return }
            try store.addTask("A task", on: owner)
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func anActionTwoProcessesRunAtOnceAddsOneTask() async throws {
        let path = try Self.databasePath()
        let stores = [try SQLiteBoardStore(path: path), try SQLiteBoardStore(path: path)]
        let key = ActionKey.random()
        let outcomes = await withTaskGroup(of: Bool.self) { group in
            for store in stores {
                group.addTask { (try? await ActionKey.run(as: key) { try store.addTask("Buy balloons", on: "2") }) != nil }
            }
            return await group.reduce(into: [Bool]()) { $0.append($1) }
        }
        #expect(outcomes.filter { $0 }.count == 1 && outcomes.count == 2, "one added it, the other was told it was applied already")
        #expect(try await stores[0].tasks(on: "2").filter { $0.title == "Buy balloons" }.count == 1)
    }
}
