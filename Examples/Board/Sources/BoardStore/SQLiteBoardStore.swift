import Board
import Foundation
import Scenery
import SceneryExperiments
import SceneryLive
import ScenerySiteStore

/// A member of the board app: someone who may sign in.
public struct BoardMember: Sendable, Hashable, Codable {
    public var id: String
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

/// The board app's data on Scenery's SQLite site store: its tables (`members`, `tasks`, as
/// the app `board`'s schema), writes that announce the board they changed to every process
/// on the file, the action ledger, and experiments' records.
///
/// ```swift
/// let store = try SQLiteBoardStore(path: "board.sqlite")
/// try await store.setDone(true, task: 1, on: "1")   // every page of board 1 hears it
/// ```
public final class SQLiteBoardStore: BoardDatabase, SiteStoreBacked, ForwardingChangeFeed {
    /// The site store the tables live on: the ledger, experiments' records and the feed.
    public let site: SQLiteSiteStore
    private let feed: SiteChangeFeed<BoardChange>
    public var backingSiteStore: any SiteStore { site }
    public var forwardedFeed: any ChangeFeed<BoardChange> { feed }
    /// Each board's tasks, read once while the database does not change: every open page of
    /// a board asking for them again after a change shares one read (a board shows everyone
    /// the same tasks, so the owner names the answer).
    private let boardTasks = SharedAnswers<String, [BoardTask]>()

    /// The app's tables, and the demo data a new database gets when `seeding`.
    public static func schema(seeding: Bool) -> SiteSchema {
        let steps = [
            "CREATE TABLE members (id TEXT PRIMARY KEY NOT NULL, name TEXT NOT NULL)",
            "CREATE TABLE tasks (id INTEGER PRIMARY KEY AUTOINCREMENT, board TEXT NOT NULL, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0)",
            "CREATE INDEX tasks_by_board ON tasks (board, id)",
        ]
        guard seeding else { return SiteSchema(app: BoardChange.app, steps: steps) }
        return SiteSchema(app: BoardChange.app, steps: steps) { connection throws(DataError) in try insert(.demo, in: connection) }
    }

    /// Opens (creating and migrating) the database at `path`, with the tables of the app's
    /// other `parts`; see `SQLiteSiteStore` for read-only and locked databases.
    public init(
        path: String, seedDemoData: Bool = true, parts: [SiteSchema] = [], createsDirectory: Bool = false, requiresWriting: Bool = false,
        lockTimeout: Duration = .seconds(30), whileLocked: () -> Void = {}
    ) throws(DataError) {
        site = try SQLiteSiteStore(
            path: path, schemas: [Self.schema(seeding: seedDemoData)] + parts, createsDirectory: createsDirectory, requiresWriting: requiresWriting,
            lockTimeout: lockTimeout, whileLocked: whileLocked)
        feed = site.feed(of: BoardChange.self)
    }

    public func tasks(on owner: String) async throws -> [BoardTask] {
        try await boardTasks.answer(to: owner, from: site) { connection throws(DataError) in
            try connection.query("SELECT id, title, done FROM tasks WHERE board = ? ORDER BY id", [.text(owner)]).map { row in
                BoardTask(id: row[0].integer, title: row[1].text ?? "", isDone: row[2].integer == 1)
            }
        }
    }

    public func setDone(_ isDone: Bool, task: Int64, on owner: String) async throws {
        try await write(on: owner, "UPDATE tasks SET done = ? WHERE id = ? AND board = ?", [.integer(isDone ? 1 : 0), .integer(task), .text(owner)])
    }

    public func remove(task: Int64, from owner: String, by viewer: String) async throws {
        guard viewer == owner else { throw DataError.notPermitted("Only the board's owner removes its tasks.") }
        try await write(on: owner, "DELETE FROM tasks WHERE id = ? AND board = ?", [.integer(task), .text(owner)])
    }

    public func add(task title: String, to owner: String, by viewer: String) async throws -> BoardTask {
        guard viewer == owner else { throw DataError.notPermitted("Only the board's owner adds tasks.") }
        let id = try await site.withConnection { connection throws(DataError) in try Self.insert(title, on: owner, site: site, in: connection) }
        return BoardTask(id: id, title: title)
    }

    @discardableResult
    public func addTask(_ title: String, on owner: String) throws(DataError) -> Int64 {
        try site.withConnection { connection throws(DataError) in try Self.insert(title, on: owner, site: site, in: connection) }
    }

    /// Adds a task to a board, announced to every page of it; returns its id.
    private static func insert(_ title: String, on owner: String, site: SQLiteSiteStore, in connection: SQLiteConnection) throws(DataError) -> Int64 {
        try site.commit([BoardChange.board(owner)], in: connection) { () throws(DataError) in
            try connection.run("INSERT INTO tasks (board, title) VALUES (?, ?)", [.text(owner), .text(title)])
            return try connection.query("SELECT last_insert_rowid()").first?.first?.integer ?? 0
        }
    }

    public func members() throws(DataError) -> [BoardMember] {
        try site.withConnection { connection throws(DataError) in
            try connection.query("SELECT id, name FROM members ORDER BY id").map { BoardMember(id: $0[0].text ?? "", name: $0[1].text ?? "") }
        }
    }

    /// One write on a board's task, announced to every page of that board; a task that is not
    /// on the board is `notFound`, and nothing is written.
    private func write(on owner: String, _ statement: String, _ values: [SQLValue]) async throws(DataError) {
        try await site.withConnection { connection throws(DataError) in
            try site.commit([BoardChange.board(owner)], in: connection) { () throws(DataError) in
                guard try connection.run(statement, values) == 1 else { throw DataError(.notFound, "That task is no longer on the board.") }
            }
        }
    }

    /// Inserts a data set's rows (into empty tables).
    static func insert(_ dataSet: BoardDataSet, in connection: SQLiteConnection) throws(DataError) {
        for member in dataSet.members {
            try connection.run("INSERT INTO members (id, name) VALUES (?, ?)", [.text(member.id), .text(member.name)])
        }
        for task in dataSet.tasks {
            try connection.run(
                "INSERT INTO tasks (id, board, title, done) VALUES (?, ?, ?, ?)",
                [.integer(task.id), .text(task.board), .text(task.title), .integer(task.done ? 1 : 0)])
        }
    }
}
