import Board
import BoardStore
import Scenery
import SceneryLive
import SceneryTesting
import Synchronization
import Testing

/// The board's module passes Scenery's live-module check: a read that began before the
/// owner's own tick and returns after it never leaves the board without the tick (the race
/// the module had when it fetched by hand).
@Suite(.timeLimit(.minutes(5))) struct BoardLiveModuleTests {
    @Test func theBoardNeverShowsAnOlderReadOverANewerWrite() async throws {
        let store = try SQLiteBoardStore(path: try BoardLiveTests.databasePath())
        let gate = ReadGate()
        let task = try #require(try await store.tasks(on: "1").first)
        let added = Mutex(0)
        let tick = TaskListModule.toggle.event(.init(task: task.id), from: "task.\(task.id).toggle")
        let check = LiveModuleCheck(reads: gate, viewer: "1", action: tick) { context in
            let parameters = try ModuleParameters(for: TaskListModule.descriptor, ["owner": "1", "order": "oldest"])
            return try TaskListModule(parameters: parameters, context: context, board: GatedBoard(board: store, gate: gate))
        } changeBySomeoneElse: {
            let number = added.withLock { count in
                count += 1
                return count
            }
            _ = try await store.add(task: "Added in another tab \(number)", to: "1", by: "1")
        }
        let problems = await check.problems()
        #expect(problems.isEmpty, "\(problems)")
    }
}

/// The board's store with its reads passing a gate; its writes and change feed as they are.
private struct GatedBoard: BoardService {
    let board: SQLiteBoardStore
    let gate: ReadGate

    func tasks(on owner: String) async throws -> [BoardTask] { try await gate.read { try await board.tasks(on: owner) } }
    func setDone(_ isDone: Bool, task: Int64, on owner: String) async throws { try await board.setDone(isDone, task: task, on: owner) }
    func remove(task: Int64, from owner: String, by viewer: String) async throws { try await board.remove(task: task, from: owner, by: viewer) }
    func add(task title: String, to owner: String, by viewer: String) async throws -> BoardTask {
        try await board.add(task: title, to: owner, by: viewer)
    }

    func changes(to entities: Set<BoardChange>, ignoringWritesOf writer: ChangeSource?) -> ChangeStream<BoardChange> {
        board.changes(to: entities, ignoringWritesOf: writer)
    }

    var changeMark: Int? { board.changeMark }

    func hasChanged(_ entities: Set<BoardChange>, since mark: Int) -> Bool { board.hasChanged(entities, since: mark) }
}
