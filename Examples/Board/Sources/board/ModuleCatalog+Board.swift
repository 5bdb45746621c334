import Board
import BoardStore
import BoardStorePostgres
import Scenery
import SceneryFaults
import SceneryLive
import ScenerySiteStore
import ScenerySiteStorePostgres
import SceneryTool

extension ToolDatabase {
    /// The board's SQLite files (`board.sqlite` in the tool's data folder by default), created
    /// and seeded with the demo members and tasks on first use, with the tables of the tool's
    /// other parts.
    public static let boardFiles = ToolDatabase.files(named: "board.sqlite") { path, options in
        BoardToolStore(
            board: try SQLiteBoardStore(
                path: path, seedDemoData: options.seedDemoData, parts: options.schemas(of: SiteSchema.self), createsDirectory: options.createsDirectory,
                requiresWriting: options.requiresWriting,
                lockTimeout: options.timeout, whileLocked: options.onLockWait))
    }

    /// The board on PostgreSQL (`postgres://USER@HOST:PORT/DB`): several servers on one
    /// database, made and seeded on first use, with the tables of the tool's other parts.
    public static let boardPostgres = ToolDatabase(schemes: ["postgres", "postgresql"]) { url, options in
        BoardToolStore(
            board: try await PostgresBoardStore.connect(
                to: PostgresURL(url), seedDemoData: options.seedDemoData, parts: options.schemas(of: PostgresSiteSchema.self),
                timeout: options.timeout))
    }
}

extension ModuleCatalog {
    /// The board app: its module over the database the tool opened (with `--fail board` and
    /// `--latency board=…`), its scene, its SQLite files and PostgreSQL databases.
    public static let board = ModuleCatalog(
        modules: [TaskListModule.descriptor], scenes: BoardScenes.directory, services: [.board], databases: [.boardFiles, .boardPostgres]
    ) { registry, services in
        let board = FaultyBoard(base: try services.store(as: BoardToolStore.self).board, faults: services.faults)
        registry.register(TaskListModule.self) { parameters, context in
            try TaskListModule(parameters: parameters, context: context, board: board)
        }
    }
}

/// The board's service with the tool's faults in front of it (its changes are the base's).
struct FaultyBoard: BoardService, ForwardingChangeFeed {
    let base: any BoardDatabase
    let faults: FaultInjector
    var forwardedFeed: any ChangeFeed<BoardChange> { Self.feed(of: base) }

    /// The base as its feed (opened first: converting the existential itself crashes the
    /// type checker of Swift 6.3).
    private static func feed(of base: some BoardDatabase) -> any ChangeFeed<BoardChange> { base }

    func tasks(on owner: String) async throws -> [BoardTask] {
        try await faults.apply(.board, .read)
        return try await base.tasks(on: owner)
    }

    func setDone(_ isDone: Bool, task: Int64, on owner: String) async throws {
        try await faults.apply(.board, .write)
        try await base.setDone(isDone, task: task, on: owner)
    }

    func remove(task: Int64, from owner: String, by viewer: String) async throws {
        try await faults.apply(.board, .write)
        try await base.remove(task: task, from: owner, by: viewer)
    }

    func add(task title: String, to owner: String, by viewer: String) async throws -> BoardTask {
        try await faults.apply(.board, .write)
        return try await base.add(task: title, to: owner, by: viewer)
    }
}

extension ServiceName {
    /// The board's service, for `--fail board` and `--latency board=…`.
    static let board: ServiceName = "board"
}
