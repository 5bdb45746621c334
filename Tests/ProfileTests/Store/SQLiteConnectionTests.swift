import Foundation
import Scenery
import Testing

@testable import ScenerySiteStore

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

    @Test func aSharedAnswerIsReadOnceUntilTheDataChangesHereOrInAnotherProcess() throws {
        let path = try temporaryPath()
        let connection = try SQLiteConnection(path: path)
        try connection.execute("CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL)")
        try connection.run("INSERT INTO tasks (title) VALUES ('Tea')")
        let answers = SharedAnswers<Int64, String>()
        var reads = 0
        func title(_ id: Int64) throws -> String {
            try answers.answer(to: id, in: connection) { () throws(DataError) -> String in
                reads += 1
                return try connection.query("SELECT title FROM tasks WHERE id = ?", [.integer(id)]).first?.first?.text ?? "none"
            }
        }
        #expect(try title(1) == "Tea")
        #expect(try title(1) == "Tea")
        #expect(reads == 1, "the same question while nothing changed is read once")
        #expect(try title(2) == "none")
        #expect(reads == 2, "another question is read for itself")

        try connection.run("UPDATE tasks SET title = 'Coffee' WHERE id = 1")
        #expect(try title(1) == "Coffee", "this connection's write is seen at once")
        let other = try SQLiteConnection(path: path)  // another process's connection
        try other.run("UPDATE tasks SET title = 'Water' WHERE id = 1")
        #expect(try title(1) == "Water", "another connection's commit is seen at once")
        #expect(reads == 4)

        // Inside a transaction nothing is shared: what it read may yet be rolled back.
        #expect(throws: DataError.self) {
            try connection.transaction { () throws(DataError) in
                try connection.run("UPDATE tasks SET title = 'Juice' WHERE id = 1")
                #expect((try? title(1)) == "Juice")
                throw DataError(.storage, "rolled back")
            }
        }
        #expect(try title(1) == "Water", "the rolled-back title is not kept")
        #expect(try title(1) == "Water")
        #expect(reads == 6)
    }

    @Test func aStatementAskedAgainIsKeptAndGivesWhatTheDatabaseHoldsNow() throws {
        let connection = try SQLiteConnection(path: try temporaryPath())
        try connection.execute("CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL UNIQUE)")
        let count = "SELECT COUNT(*) FROM tasks WHERE title LIKE ?"
        #expect(try connection.query(count, [.text("W%")])[0][0] == .integer(0))
        try connection.run("INSERT INTO tasks (title) VALUES (?)", [.text("Write the docs")])
        #expect(try connection.query(count, [.text("W%")])[0][0] == .integer(1), "a kept statement reads what is there now")
        #expect(try connection.query(count, [.text("S%")])[0][0] == .integer(0), "with the new arguments only")
        #expect(connection.keptStatementCount == 2, "the query and the insert are kept")

        // A failed step: the statement is not kept in a failed state.
        #expect(throws: DataError.self) { try connection.run("INSERT INTO tasks (title) VALUES (?)", [.text("Write the docs")]) }
        try connection.run("INSERT INTO tasks (title) VALUES (?)", [.text("Ship it")])
        #expect(try connection.query(count, [.text("%")])[0][0] == .integer(2))

        // The same query inside a walk of its own rows, and after the table changed shape.
        var inner: [Int64] = []
        try connection.forEachRow("SELECT id FROM tasks ORDER BY id") { row, _ throws(DataError) in
            inner.append(contentsOf: try connection.query("SELECT id FROM tasks ORDER BY id").map { $0[0].integer })
        }
        #expect(inner == [1, 2, 1, 2])
        #expect(try connection.query("SELECT * FROM tasks ORDER BY id")[0].count == 2)
        try connection.execute("ALTER TABLE tasks ADD COLUMN done INTEGER NOT NULL DEFAULT 0")
        #expect(try connection.query("SELECT * FROM tasks ORDER BY id")[0].count == 3, "the kept statement is prepared again for the new shape")
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
