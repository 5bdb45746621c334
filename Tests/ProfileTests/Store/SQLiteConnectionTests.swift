import Foundation
import Scenery
import ScenerySiteStore
import Testing

/// The site store's SQLite connection, as an app uses it for tables of its own.
@Suite struct SQLiteConnectionTests {
    func temporaryPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appending(path: "scenery-connection-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appending(path: "board.sqlite").path
    }

    @Test func anAppsOwnTableTakesWritesInTransactionsThatHappenWholeOrNotAtAll() throws {
        let connection = try SQLiteConnection(path: try temporaryPath())
        try connection.execute("CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE)")
        try connection.transaction { () throws(DataError) in
            try connection.run("INSERT INTO tasks (title) VALUES (?)", [.text("Write the docs")])
        }
        #expect(connection.lastInsertedRowID == 1)
        // A transaction that fails half-way leaves nothing of itself.
        #expect(throws: DataError.self) {
            try connection.transaction { () throws(DataError) in
                try connection.run("INSERT INTO tasks (title) VALUES (?)", [.text("Ship it")])
                try connection.run("INSERT INTO tasks (title) VALUES (?)", [.text("Write the docs")])  // not unique
            }
        }
        let titles = try connection.query("SELECT title FROM tasks ORDER BY id").compactMap { $0.first?.text }
        #expect(titles == ["Write the docs"])
    }

    @Test func aFailureIsADataErrorThatNamesTheDatabase() throws {
        let path = try temporaryPath()
        let connection = try SQLiteConnection(path: path)
        do {
            _ = try connection.query("SELECT * FROM no_such_table")
            Issue.record("a query of a missing table must fail")
        } catch {
            #expect(error.kind == .storage)
            #expect(error.message.contains(path), "\(error.message)")
            #expect(error.message.contains("no_such_table"), "\(error.message)")
        }
    }

    @Test func aLockHeldPastTheBusyTimeoutIsAConflictToTryAgain() throws {
        let path = try temporaryPath()
        let holder = try SQLiteConnection(path: path)
        let other = try SQLiteConnection(path: path)
        try holder.execute("CREATE TABLE tasks (id INTEGER PRIMARY KEY)")
        other.setBusyTimeout(0)
        try holder.execute("BEGIN IMMEDIATE")
        defer { try? holder.execute("ROLLBACK") }
        do {
            try other.run("INSERT INTO tasks DEFAULT VALUES")
            Issue.record("a write under another connection's lock must fail")
        } catch {
            #expect(error.kind == .conflict, "\(error)")
            #expect(other.lastErrorWasBusy)
        }
    }
}
