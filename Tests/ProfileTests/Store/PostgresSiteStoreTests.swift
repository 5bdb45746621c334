import Foundation
import Logging
import PostgresNIO
import Scenery
import SceneryLive
import ScenerySiteStorePostgres
import SceneryTesting
import Testing

/// An app of another domain on the PostgreSQL site store: its own tables, its entities live
/// across servers, never mixed with another app's, and errors that name the app.
@Suite(.timeLimit(.minutes(5))) struct PostgresSiteStoreTests {
    typealias Board = SQLiteSiteStoreTests.Board
    typealias Notes = SQLiteSiteStoreTests.Notes
    typealias Broken = SQLiteSiteStoreTests.Broken

    static let schemas = [
        PostgresSiteSchema(app: "board", steps: ["CREATE TABLE tasks (id BIGINT PRIMARY KEY, done BOOLEAN NOT NULL DEFAULT false)"]) { connection, logger in
            try await connection.query("INSERT INTO tasks (id) VALUES (1), (2)", logger: logger)
        },
        PostgresSiteSchema(app: "notes", steps: ["CREATE TABLE notes (id BIGSERIAL PRIMARY KEY, text TEXT NOT NULL)"]),
    ]

    /// Two servers on one new database.
    func twoServers() async throws -> (PostgresSiteStore, PostgresSiteStore) {
        let url = try await TestPostgres.sharedServer().newDatabase()
        let first = try await PostgresSiteStore.connect(to: url, schemas: Self.schemas)
        let second = try await PostgresSiteStore.connect(to: url, schemas: Self.schemas)
        return (first, second)
    }

    func record<Entity: RecordedEntity>(_ feed: PostgresChangeFeed<Entity>, following entities: Set<Entity>) -> (AwaitableLog<Entity>, Task<Void, Never>) {
        let log = AwaitableLog<Entity>()
        let stream = feed.changes(to: entities)
        return (log, Task { for await change in stream { log.append(change) } })
    }

    @Test func twoAppsOnOneDatabaseNeverWakeEachOthersModulesAcrossServers() async throws {
        let (server, other) = try await twoServers()
        let (boardLog, boardTask) = record(server.feed(of: Board.self), following: [.task(1)])
        let (notesLog, notesTask) = record(server.feed(of: Notes.self), following: [.task(1)])
        defer {
            boardTask.cancel()
            notesTask.cancel()
        }
        try await server.listen()
        try await other.writing("write a note", announcing: [Notes.task(1)]) { connection, logger in
            try await connection.query("INSERT INTO notes (text) VALUES ('hello')", logger: logger)
        }
        #expect(await notesLog.wait(timeout: .seconds(60)) { $0 == [.task(1)] })
        try await other.writing("finish a task", announcing: [Board.task(1)]) { connection, logger in
            try await connection.query("UPDATE tasks SET done = true WHERE id = 1", logger: logger)
        }
        #expect(await boardLog.wait(timeout: .seconds(60)) { !$0.isEmpty })
        #expect(boardLog.elements == [.task(1)], "the board heard its own change only (notifications arrive in order)")
        #expect(notesLog.elements == [.task(1)])
        await server.close()
        await other.close()
    }

    /// The contract every store keeps (SceneryTesting's `StoreConformance`), for an app's
    /// writes through the PostgreSQL site store.
    @Test func anAppsWritesKeepScenerysStoreContract() async throws {
        let (server, other) = try await twoServers()
        await other.close()
        let problems = await StoreConformance.problems(feed: server.feed(of: Board.self), ledger: server, entities: (.task(1), .task(2))) { change in
            guard case .task(let task) = change else { return }
            try await server.writing("finish a task", announcing: [change]) { connection, logger in
                try await connection.query("UPDATE tasks SET done = true WHERE id = \(task)", logger: logger)
            }
        }
        #expect(problems.isEmpty, "\(problems)")
        await server.close()
    }

    /// A query the driver never answers on a connection that closed (as after the server
    /// restarted) fails the call as a lost connection instead of holding it, and the page's
    /// action with it, forever; the store goes on with a new pool.
    @Test func aCallWhoseConnectionClosesUnderAnUnansweredQueryFailsAndTheStoreGoesOn() async throws {
        let (server, other) = try await twoServers()
        await other.close()
        // The driver's lost answer: a wait nothing resumes while the store decides (resumed at
        // the end, so the abandoned call ends instead of leaking its continuation).
        let lostAnswer = Locked<CheckedContinuation<Void, Never>?>(nil)
        defer { lostAnswer.withLock { $0.take() }?.resume() }
        do {
            try await server.reading("wait for an answer that never comes") { connection, _ in
                try await connection.close()
                await withCheckedContinuation { continuation in lostAnswer.withLock { $0 = continuation } }
            }
            Issue.record("a call whose connection closed must fail")
        } catch {
            #expect(error.kind == .connectionLost)
            #expect(error.message.contains("the connection closed under a query that got no answer"), "\(error.message)")
        }
        let done = try await server.reading("read a task") { connection, logger in
            for try await done in try await connection.query("SELECT done FROM tasks WHERE id = 1", logger: logger).decode(Bool.self) { return done }
            return true
        }
        #expect(done == false, "the next call reads on a new connection")
        await server.close()
    }

    /// A write whose connection goes may have committed (its answer lost), and a server does
    /// not hear its own notification again: its own pages of what it wrote fetch anyway.
    @Test func aWriteThatLosesItsConnectionStillTellsThisServersPagesToFetch() async throws {
        let (server, other) = try await twoServers()
        await other.close()
        let (log, task) = record(server.feed(of: Board.self), following: [.task(1)])
        defer { task.cancel() }
        do {
            try await ActionKey.run(as: .random()) {
                try await server.writing("finish a task", announcing: [Board.task(1)]) { connection, logger in
                    try await connection.query("UPDATE tasks SET done = true WHERE id = 1", logger: logger)
                    try await connection.close()
                }
            }
            Issue.record("a write whose connection closed must fail")
        } catch let error as DataError {
            #expect(error.kind == .connectionLost, "not committed, so not applied: \(error.message)")
        }
        #expect(await log.wait(timeout: .seconds(60)) { $0 == [.task(1)] })
        await server.close()
    }

    /// The writer was told its write failed, yet it may have committed: its own page fetches
    /// what is stored too (a page showing the old like count for good was the soak's finding).
    @Test func aWriteThatLosesItsConnectionIsFetchedAgainByItsOwnWriter() async throws {
        let (server, other) = try await twoServers()
        await other.close()
        let writer = ChangeSource()
        let log = AwaitableLog<Board>()
        let stream = server.feed(of: Board.self).changes(to: [.task(1)], ignoringWritesOf: writer)
        let task = Task { for await change in stream { log.append(change) } }
        defer { task.cancel() }
        await #expect(throws: DataError.self) {
            try await WriteContext.current.writing(as: writer).run {
                try await ActionKey.run(as: .random()) {
                    try await server.writing("finish a task", announcing: [Board.task(1)]) { connection, logger in
                        try await connection.query("UPDATE tasks SET done = true WHERE id = 1", logger: logger)
                        try await connection.close()
                    }
                }
            }
        }
        #expect(await log.wait(timeout: .seconds(60)) { $0 == [.task(1)] })
        await server.close()
    }

    /// Experiments' records from every server on the database, each unit counted once per arm.
    @Test func experimentsRecordsFromTwoServersAreTalliedOncePerUnit() async throws {
        let (server, other) = try await twoServers()
        func record(_ kind: ImpressionRecord.Kind, unit: String, arm: String) -> ImpressionRecord {
            ImpressionRecord(kind: kind, scene: "board", variant: "default", unit: unit, module: "tasks", experiment: "task-order", arm: arm)
        }
        try await server.record([record(.assignment, unit: "1", arm: "oldest-first"), record(.exposure, unit: "1", arm: "oldest-first")])
        try await other.record([record(.assignment, unit: "1", arm: "oldest-first"), record(.assignment, unit: "2", arm: "newest-first")])
        let tallies = try await other.experimentTallies()
        #expect(tallies.map(\.experiment) == ["task-order"])
        #expect(tallies.first?.assigned == ["oldest-first": 1, "newest-first": 1])
        #expect(tallies.first?.exposed == ["oldest-first": 1])
        await server.close()
        await other.close()
    }

    @Test func aNotificationItsAppCannotReadMakesItsPagesFetchEverything() async throws {
        let (server, other) = try await twoServers()
        let (log, task) = record(server.feed(of: Board.self), following: [.task(1)])
        defer { task.cancel() }
        try await server.listen()
        try await other.writing("send a notification of another version") { connection, logger in
            try await connection.query(#"SELECT pg_notify('scenery_changes', '{"o":"elsewhere","c":[["board","tsk","one"]]}')"#, logger: logger)
        }
        #expect(await log.wait(timeout: .seconds(60)) { $0.contains(.everything) })
        await server.close()
        await other.close()
    }

    @Test func anEntityNoNotificationCanHoldIsAnErrorNamingTheAppAndNothingIsWritten() async throws {
        let (server, other) = try await twoServers()
        do {
            try await server.writing("finish a task", announcing: [Broken.bad]) { connection, logger in
                try await connection.query("UPDATE tasks SET done = true WHERE id = 2", logger: logger)
            }
            Issue.record("an entity no notification can hold must be refused")
        } catch {
            #expect(error.kind == .invalidData)
            #expect(error.message.contains("'broken'") && error.message.contains(server.location), "\(error.message)")
        }
        let done = try await other.reading("read a task") { connection, logger in
            for try await done in try await connection.query("SELECT done FROM tasks WHERE id = 2", logger: logger).decode(Bool.self) { return done }
            return true
        }
        #expect(done == false)
        await server.close()
        await other.close()
    }

    /// Whether `table` exists in the database `store` is on.
    func tableExists(_ table: String, on store: PostgresSiteStore) async throws -> Bool {
        try await store.reading("look for a table") { connection, logger in
            var found = false
            for try await _ in try await connection.query("SELECT 1 FROM pg_tables WHERE tablename = \(table)", logger: logger) { found = true }
            return found
        }
    }

    @Test func aPartsFailingStepNamesThePartAndChangesNoPartsTables() async throws {
        let url = try await TestPostgres.sharedServer().newDatabase()
        let guestbook = PostgresSiteSchema(app: "guestbook", steps: ["CREATE TABLE guestbook_messages (id BIGSERIAL PRIMARY KEY)", "CREATE TABLE oops ("])
        do {
            _ = try await PostgresSiteStore.connect(to: url, schemas: Self.schemas + [guestbook])
            Issue.record("a part whose step fails must fail the connection")
        } catch {
            #expect(error.message.contains("The tables of the part 'guestbook' could not be brought up to date"), "\(error.message)")
            #expect(error.message.contains("SQLSTATE 42601"), "the server's reason: \(error.message)")
        }
        let fixed = PostgresSiteSchema(app: "guestbook", steps: ["CREATE TABLE guestbook_messages (id BIGSERIAL PRIMARY KEY)"])
        let before = try await PostgresSiteStore.connect(to: url, schemas: [])
        #expect(try await !tableExists("tasks", on: before), "the board's step, made before the guestbook's failed, is rolled back")
        #expect(try await !tableExists("guestbook_messages", on: before), "the guestbook's first step is rolled back")
        await before.close()
        let store = try await PostgresSiteStore.connect(to: url, schemas: Self.schemas + [fixed])
        #expect(try await tableExists("tasks", on: store))
        #expect(try await tableExists("guestbook_messages", on: store))
        await store.close()
    }

    @Test func twoPartsDeclaringOneAppsTablesAreRefused() async throws {
        let url = try await TestPostgres.sharedServer().newDatabase()
        do {
            _ = try await PostgresSiteStore.connect(
                to: url, schemas: Self.schemas + [PostgresSiteSchema(app: "notes", steps: ["CREATE TABLE cards (id BIGINT)"])])
            Issue.record("two schemas of one app must be refused")
        } catch {
            #expect(error.message.contains("Two parts declare the tables of the app 'notes'"), "\(error.message)")
        }
    }
}
