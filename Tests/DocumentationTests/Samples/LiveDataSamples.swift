// The samples of "Live data for your own app" (Sources/SceneryLive/SceneryLive.docc/LiveData.md),
// as code that compiles and runs: an app of another domain than the demo's (a board of
// tasks) on the public API of SceneryLive. DocumentationSampleTests checks that the
// article's blocks stand here line for line.
import Foundation
import Scenery
import SceneryLive
import ScenerySiteStore
import SceneryTesting
import Synchronization
import Testing

enum BoardChange: LiveEntity {
    case task(Int)
    case everything

    var description: String {
        switch self {
        case .task(let id): "task \(id)"
        case .everything: "everything"
        }
    }
}

final class BoardStore: ChangeFeed {
    private let done = Mutex<[Int: Bool]>([:])
    private let hub = ChangeHub<BoardChange>()

    func changes(to entities: Set<BoardChange>, ignoringWritesOf writer: ChangeSource?) -> ChangeStream<BoardChange> {
        hub.changes(to: entities, ignoringWritesOf: writer)
    }

    var changeMark: Int? { hub.changeMark }

    func hasChanged(_ entities: Set<BoardChange>, since mark: Int) -> Bool { hub.hasChanged(entities, since: mark) }

    func isDone(_ task: Int) async throws -> Bool { done.withLock { $0[task] ?? false } }

    func setDone(_ isDone: Bool, task: Int) async throws {
        done.withLock { $0[task] = isDone }
        hub.publish([.task(task)])  // after the write, in the writing task
    }
}

actor TaskModule: Module {
    struct Toggle: Codable, Sendable { var task: Int }
    static let toggle = EventKind("task.toggle", payload: Toggle.self)

    static let descriptor = ModuleDescriptor(
        type: "TaskModule",
        summary: "One task of a board, live.",
        parameters: [ParameterSpec("task", .int, summary: "Which task.")],
        sends: [toggle],
        performs: [toggle])

    private let task: Int
    private let store: BoardStore
    private let context: ModuleContext
    private let live: LiveQuery<TaskModule, BoardChange>
    private var state: LoadState<Bool> = .idle
    private var failure: String?

    init(parameters: ModuleParameters, context: ModuleContext, store: BoardStore) throws {
        task = try parameters.int("task")
        self.store = store
        self.context = context
        live = LiveQuery(store, context: context) { module, _ in
            module.state = .loaded(try await module.store.isDone(module.task))
            await module.context.setNeedsRender()
        }
    }

    func load(_ request: LoadRequest) async throws {
        state = .loaded(try await store.isDone(task))
    }

    func appear() async { await live.follow([.task(task)], for: self) }

    func disappear() async { live.stop() }

    func perform(_ event: Event) async throws {
        guard (try? Self.toggle.payload(of: event)) != nil, let done = state.value else { return }
        await live.write(.task(task), for: self) {
            state = .loaded(!done)  // shown at once
            await context.setNeedsRender()
            do {
                try await store.setDone(!done, task: task)
                failure = nil
            } catch {
                state = .loaded(done)
                failure = "Couldn't save: \(SceneryError.messageForViewers(of: error))"
            }
            await context.setNeedsRender()
        }
    }

    func render() -> ViewNode {
        state.render(id: "task") { done in
            let title = done ? "Done" : "To do"
            let toggle = Self.toggle.descriptor(Toggle(task: task))
            var children: [ViewNode] = [.button("toggle", title: title, sends: toggle)]
            if let notice = failure ?? live.staleNotice { children.append(.text("notice", notice, role: .caption)) }
            return .stack("content", children)
        }
    }
}

extension BoardChange: RecordedEntity {
    static let app = "board"

    var record: (kind: String, id: String) {
        switch self {
        case .task(let id): ("task", String(id))
        case .everything: ("everything", "")
        }
    }

    init?(kind: String, id: String) {
        guard kind == "task", let id = Int(id) else { return nil }
        self = .task(id)
    }
}

final class SharedBoardStore: ChangeFeed {
    private let site: SQLiteSiteStore
    private let feed: SiteChangeFeed<BoardChange>

    init(path: String) throws(DataError) {
        let schema = SiteSchema(app: "board", steps: ["CREATE TABLE tasks (id INTEGER PRIMARY KEY, done INTEGER NOT NULL DEFAULT 0)"])
        site = try SQLiteSiteStore(path: path, schemas: [schema])
        feed = site.feed(of: BoardChange.self)
    }

    func changes(to entities: Set<BoardChange>, ignoringWritesOf writer: ChangeSource?) -> ChangeStream<BoardChange> {
        feed.changes(to: entities, ignoringWritesOf: writer)
    }

    var changeMark: Int? { feed.changeMark }

    func hasChanged(_ entities: Set<BoardChange>, since mark: Int) -> Bool { feed.hasChanged(entities, since: mark) }

    func isDone(_ task: Int) async throws -> Bool {
        try await site.withConnection { connection throws(DataError) in
            try connection.query("SELECT done FROM tasks WHERE id = ?", [.integer(Int64(task))]).first?.first?.integer == 1
        }
    }

    func setDone(_ isDone: Bool, task: Int) async throws {
        try await site.withConnection { connection throws(DataError) in
            try site.commit([BoardChange.task(task)], in: connection) { () throws(DataError) in
                let done: SQLValue = .integer(isDone ? 1 : 0)
                try connection.run(
                    "INSERT INTO tasks (id, done) VALUES (?, ?) ON CONFLICT (id) DO UPDATE SET done = excluded.done", [.integer(Int64(task)), done])
            }
        }
    }
}

@Suite(.timeLimit(.minutes(5))) struct LiveDataSamples {
    /// Two viewers' pages of the same task, on one store.
    func twoPages() async throws -> (store: BoardStore, pages: [(scene: SceneInstance, host: RecordingHost)]) {
        let store = BoardStore()
        var registry = SceneRegistry()
        registry.register(TaskModule.self) { parameters, context in
            try TaskModule(parameters: parameters, context: context, store: store)
        }
        let problems = registry.addScene(id: "task", source: #"{ "modules": [ { "id": "task", "type": "TaskModule", "params": { "task": 7 } } ] }"#)
        #expect(problems.isEmpty, "\(problems)")
        var pages: [(scene: SceneInstance, host: RecordingHost)] = []
        for viewer in ["ann", "ben"] {
            let host = RecordingHost()
            let scene = try await registry.assemble("task", for: SceneContext(viewer: viewer), host: host)
            await scene.appear()
            _ = await scene.takeBaseline()
            host.reset()
            pages.append((scene, host))
        }
        return (store, pages)
    }

    @Test func oneViewersWriteReachesTheOtherViewersPage() async throws {
        let (_, pages) = try await twoPages()
        let (ann, ben) = (pages[0], pages[1])
        let toggle = try #require(await ann.scene.render().action(withID: "task/toggle"))
        await ann.scene.send(toggle.event)
        let reached = await ben.host.waitForUpdates { $0.contains { $0.node.node(withID: "task/toggle")?.visibleTexts == ["Done"] } }
        #expect(reached, "Ann's write reached Ben's page")
        #expect(await ann.scene.render().node(withID: "task/toggle")?.visibleTexts == ["Done"])
        for page in pages { await page.scene.leave() }
    }

    @Test func aPageThatWasHiddenFetchesWhatChangedMeanwhileWhenShownAgain() async throws {
        let (store, pages) = try await twoPages()
        let ben = pages[1]
        await ben.scene.disappear()
        try await store.setDone(true, task: 7)
        #expect(await ben.scene.render().node(withID: "task/toggle")?.visibleTexts == ["To do"], "hidden: nothing fetched")
        await ben.scene.appear()
        #expect(await ben.host.waitForUpdates { $0.contains { $0.node.node(withID: "task/toggle")?.visibleTexts == ["Done"] } })
        for page in pages { await page.scene.leave() }
    }

    @Test func aWriteInOneProcessReachesTheModulesOfAnother() async throws {
        let folder = FileManager.default.temporaryDirectory.appending(path: "scenery-board-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let path = folder.appending(path: "board.sqlite").path
        let (server, other) = (try SharedBoardStore(path: path), try SharedBoardStore(path: path))  // two processes, as SQLite sees them
        let heard = AwaitableLog<BoardChange>()
        let live = LiveChanges(server)
        live.follow([.task(7)]) { heard.append($0) }
        try await other.setDone(true, task: 7)
        #expect(await heard.wait { $0.contains(.task(7)) })
        #expect(try await server.isDone(7))
        live.stop()
    }
}
