import Board
import BoardStore
import Foundation
import PostgresNIO
import Scenery
import SceneryExperiments
import SceneryLive
import ScenerySiteStorePostgres

/// The board app's data on Scenery's PostgreSQL site store, for several servers on one
/// database: the same tables as ``SQLiteBoardStore``, and writes that announce their board
/// with `NOTIFY` so that every server's pages of it fetch again.
///
/// ```swift
/// let store = try await PostgresBoardStore.connect(to: PostgresURL("postgres://board@127.0.0.1/board"))
/// try await store.listen()    // hear the other servers' writes
/// ```
public final class PostgresBoardStore: BoardDatabase, SiteStoreBacked, ForwardingChangeFeed {
    /// The site store the tables live on.
    public let site: PostgresSiteStore
    private let feed: PostgresChangeFeed<BoardChange>
    public var backingSiteStore: any SiteStore { site }
    public var forwardedFeed: any ChangeFeed<BoardChange> { feed }
    /// A board's tasks read once for all the pages asking at once (after a tick, every page
    /// of the board on this server).
    private let boardReads = SharedReads<String, [BoardTask]>()

    /// The app's tables, and the demo data a new database gets when `seeding`.
    public static func schema(seeding: Bool) -> PostgresSiteSchema {
        let steps = [
            "CREATE TABLE members (id TEXT PRIMARY KEY, name TEXT NOT NULL)",
            "CREATE TABLE tasks (id BIGSERIAL PRIMARY KEY, board TEXT NOT NULL, title TEXT NOT NULL, done BOOLEAN NOT NULL DEFAULT false)",
            "CREATE INDEX tasks_by_board ON tasks (board, id)",
        ]
        guard seeding else { return PostgresSiteSchema(app: BoardChange.app, steps: steps) }
        return PostgresSiteSchema(app: BoardChange.app, steps: steps) { connection, logger in try await insert(.demo, on: connection, logger: logger) }
    }

    private init(site: PostgresSiteStore) {
        self.site = site
        feed = site.feed(of: BoardChange.self)
    }

    /// Connects to the database at `url`, making (and seeding) the tables, and those of the
    /// app's other `parts`, on first use.
    public static func connect(
        to url: PostgresURL, seedDemoData: Bool = true, parts: [PostgresSiteSchema] = [], timeout: Duration = .seconds(10)
    ) async throws(DataError) -> PostgresBoardStore {
        PostgresBoardStore(site: try await PostgresSiteStore.connect(to: url, schemas: [schema(seeding: seedDemoData)] + parts, timeout: timeout))
    }

    public func tasks(on owner: String) async throws -> [BoardTask] {
        try await boardReads.value(of: owner, at: feed.changeMark ?? 0) { try await self.readTasks(on: owner) }
    }

    private func readTasks(on owner: String) async throws -> [BoardTask] {
        try await site.reading("read a board") { connection, logger in
            try await connection.query("SELECT id, title, done FROM tasks WHERE board = \(owner) ORDER BY id", logger: logger)
                .collect().map { row in
                    let (id, title, done) = try row.decode((Int64, String, Bool).self)
                    return BoardTask(id: id, title: title, isDone: done)
                }
        }
    }

    public func setDone(_ isDone: Bool, task: Int64, on owner: String) async throws {
        try await write(on: owner) { connection, logger in
            try await connection.query("UPDATE tasks SET done = \(isDone) WHERE id = \(task) AND board = \(owner) RETURNING id", logger: logger)
        }
    }

    public func remove(task: Int64, from owner: String, by viewer: String) async throws {
        guard viewer == owner else { throw DataError.notPermitted("Only the board's owner removes its tasks.") }
        try await write(on: owner) { connection, logger in
            try await connection.query("DELETE FROM tasks WHERE id = \(task) AND board = \(owner) RETURNING id", logger: logger)
        }
    }

    public func add(task title: String, to owner: String, by viewer: String) async throws -> BoardTask {
        guard viewer == owner else { throw DataError.notPermitted("Only the board's owner adds tasks.") }
        return BoardTask(id: try await addTask(title, on: owner), title: title)
    }

    @discardableResult
    public func addTask(_ title: String, on owner: String) async throws(DataError) -> Int64 {
        try await site.writing("add a task", announcing: [BoardChange.board(owner)]) { connection, logger in
            let rows = try await connection.query("INSERT INTO tasks (board, title) VALUES (\(owner), \(title)) RETURNING id", logger: logger)
            for try await id in rows.decode(Int64.self) { return id }
            return 0
        }
    }

    public func members() async throws(DataError) -> [BoardMember] {
        try await site.reading("read the members") { connection, logger in
            try await connection.query("SELECT id, name FROM members ORDER BY id", logger: logger).collect().map { row in
                let (id, name) = try row.decode((String, String).self)
                return BoardMember(id: id, name: name)
            }
        }
    }

    public func exportData() async throws(DataError) -> BoardDataSet {
        let tasks = try await site.reading("export the tasks") { connection, logger in
            try await connection.query("SELECT id, board, title, done FROM tasks ORDER BY id", logger: logger).collect().map { row in
                let (id, board, title, done) = try row.decode((Int64, String, String, Bool).self)
                return BoardDataSet.TaskRecord(id: id, board: board, title: title, done: done)
            }
        }
        return BoardDataSet(members: try await members(), tasks: tasks)
    }

    public func importData(_ dataSet: BoardDataSet) async throws(DataError) {
        let problems = dataSet.problems
        guard problems.isEmpty else { throw DataError(.invalidData, "\(problems.count) problem(s) in the board data.", problems: problems) }
        try await site.writing("import board data", announcing: [BoardChange.everything]) { connection, logger in
            try await connection.query("DELETE FROM tasks", logger: logger)
            try await connection.query("DELETE FROM members", logger: logger)
            try await Self.insert(dataSet, on: connection, logger: logger)
            try await connection.query("SELECT setval('tasks_id_seq', GREATEST((SELECT MAX(id) FROM tasks), 1))", logger: logger)
        }
    }

    /// One write on a board's task, announced to every server's pages of that board; a task
    /// that is not on the board is `notFound`, and nothing is written.
    private func write(on owner: String, _ statement: @escaping @Sendable (PostgresConnection, Logger) async throws -> PostgresRowSequence)
        async throws(DataError)
    {
        try await site.writing("change a task", announcing: [BoardChange.board(owner)]) { connection, logger in
            for try await _ in try await statement(connection, logger) { return }
            throw DataError(.notFound, "That task is no longer on the board.")
        }
    }

    /// Inserts a data set's rows (into empty tables).
    static func insert(_ dataSet: BoardDataSet, on connection: PostgresConnection, logger: Logger) async throws {
        for member in dataSet.members {
            try await connection.query("INSERT INTO members (id, name) VALUES (\(member.id), \(member.name))", logger: logger)
        }
        for task in dataSet.tasks {
            try await connection.query(
                "INSERT INTO tasks (id, board, title, done) VALUES (\(task.id), \(task.board), \(task.title), \(task.done))", logger: logger)
        }
        try await connection.query("SELECT setval('tasks_id_seq', GREATEST((SELECT MAX(id) FROM tasks), 1))", logger: logger)
    }
}
