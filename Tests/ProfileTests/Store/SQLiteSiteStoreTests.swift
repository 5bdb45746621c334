import Foundation
import Scenery
import SceneryExperiments
import SceneryLive
import ScenerySiteStore
import SceneryTesting
import Synchronization
import Testing

/// An app of another domain on the site store: its own tables and migrations, its own
/// entities live across processes, never mixed with another app's, its actions once.
@Suite(.timeLimit(.minutes(5))) struct SQLiteSiteStoreTests {
    /// A board's entities.
    enum Board: RecordedEntity {
        case task(Int)
        case everything

        static let app = "board"
        var description: String { self == .everything ? "everything" : "task \(record.id)" }
        var record: (kind: String, id: String) {
            if case .task(let id) = self { ("task", String(id)) } else { ("everything", "") }
        }
        init?(kind: String, id: String) {
            guard kind == "task", let id = Int(id) else { return nil }
            self = .task(id)
        }
    }

    /// Another app on the same database, whose rows read exactly like the board's.
    enum Notes: RecordedEntity {
        case task(Int)
        case everything

        static let app = "notes"
        var description: String { self == .everything ? "everything" : "note task \(record.id)" }
        var record: (kind: String, id: String) {
            if case .task(let id) = self { ("task", String(id)) } else { ("everything", "") }
        }
        init?(kind: String, id: String) {
            guard kind == "task", let id = Int(id) else { return nil }
            self = .task(id)
        }
    }

    /// An entity no row can hold.
    enum Broken: RecordedEntity {
        case bad
        case everything

        static let app = "broken"
        var description: String { "bad" }
        var record: (kind: String, id: String) { ("line\nbreak", "1") }
        init?(kind: String, id: String) { nil }
    }

    static let board = SiteSchema(app: "board", steps: ["CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0)"]) {
        connection throws(DataError) in
        try connection.run("INSERT INTO tasks (id, title) VALUES (1, 'Write the docs'), (2, 'Ship it')")
    }

    func temporaryPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appending(path: "scenery-site-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appending(path: "site.sqlite").path
    }

    /// Records what a feed's subscription receives.
    func record<Entity: RecordedEntity>(_ feed: SiteChangeFeed<Entity>, following entities: Set<Entity>) -> (AwaitableLog<Entity>, Task<Void, Never>) {
        let log = AwaitableLog<Entity>()
        let stream = feed.changes(to: entities)
        let task = Task { for await change in stream { log.append(change) } }
        return (log, task)
    }

    func setDone(_ task: Int, on store: SQLiteSiteStore) throws {
        try store.withConnection { connection throws(DataError) in
            try store.commit([Board.task(task)], in: connection) { () throws(DataError) in
                try connection.run("UPDATE tasks SET done = 1 WHERE id = ?", [.integer(Int64(task))])
            }
        }
    }

    @Test func anAppsTablesAreMadeAndSeededOnceAndItsWritesReachAnotherProcess() async throws {
        let path = try temporaryPath()
        let server = try SQLiteSiteStore(path: path, schemas: [Self.board])
        let other = try SQLiteSiteStore(path: path, schemas: [Self.board])  // another process, as SQLite sees it
        let count = try await other.withConnection { connection throws(DataError) in try connection.query("SELECT COUNT(*) FROM tasks")[0][0].integer }
        #expect(count == 2, "seeded once, not by each opening")
        let (log, task) = record(server.feed(of: Board.self), following: [.task(1)])
        defer { task.cancel() }
        try setDone(1, on: other)
        #expect(await log.wait { $0.contains(.task(1)) })
    }

    /// Experiments' records of any app: appended from two processes, each unit counted once
    /// per arm, assignments and exposures apart.
    @Test func experimentsRecordsFromTwoProcessesAreTalliedOncePerUnit() throws {
        let path = try temporaryPath()
        let (server, other) = (try SQLiteSiteStore(path: path, schemas: [Self.board]), try SQLiteSiteStore(path: path, schemas: [Self.board]))
        func record(_ kind: ImpressionRecord.Kind, unit: String, arm: String) -> ImpressionRecord {
            ImpressionRecord(kind: kind, scene: "board", variant: "default", unit: unit, module: "tasks", experiment: "task-order", arm: arm)
        }
        try server.record([record(.assignment, unit: "1", arm: "oldest-first"), record(.exposure, unit: "1", arm: "oldest-first")])
        try other.record([record(.assignment, unit: "1", arm: "oldest-first"), record(.assignment, unit: "2", arm: "newest-first")])
        try other.record([ImpressionRecord(kind: .impression, scene: "board", variant: "default", unit: "3", module: "tasks")])
        let tallies = try server.experimentTallies()
        #expect(tallies.map(\.experiment) == ["task-order"])
        #expect(tallies.first?.assigned == ["oldest-first": 1, "newest-first": 1])
        #expect(tallies.first?.exposed == ["oldest-first": 1])
        #expect(try other.impressionCount() == 5)
    }

    /// The contract every store keeps (SceneryTesting's `StoreConformance`), for an app's
    /// writes through the site store.
    @Test func anAppsWritesKeepScenerysStoreContract() async throws {
        let store = try SQLiteSiteStore(path: try temporaryPath(), schemas: [Self.board])
        let problems = await StoreConformance.problems(feed: store.feed(of: Board.self), ledger: store, entities: (.task(1), .task(2))) { change in
            guard case .task(let task) = change else { return }
            try setDone(task, on: store)
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func twoAppsOnOneDatabaseNeverWakeEachOthersModules() async throws {
        let path = try temporaryPath()
        let notes = SiteSchema(app: "notes", steps: ["CREATE TABLE notes (id INTEGER PRIMARY KEY, text TEXT NOT NULL)"])
        let server = try SQLiteSiteStore(path: path, schemas: [Self.board, notes])
        let other = try SQLiteSiteStore(path: path, schemas: [Self.board, notes])
        let (boardLog, boardTask) = record(server.feed(of: Board.self), following: [.task(1)])
        let (notesLog, notesTask) = record(server.feed(of: Notes.self), following: [.task(1)])
        defer {
            boardTask.cancel()
            notesTask.cancel()
        }
        // A note whose row reads exactly like the board's task 1.
        try await other.withConnection { connection throws(DataError) in
            try other.commit([Notes.task(1)], in: connection) { () throws(DataError) in
                try connection.run("INSERT INTO notes (text) VALUES ('hello')")
            }
        }
        #expect(await notesLog.wait { $0 == [.task(1)] })
        try setDone(1, on: other)
        #expect(await boardLog.wait { !$0.isEmpty })
        #expect(boardLog.elements == [.task(1)], "the board heard its own change only, after the note's (rows are read in order)")
        #expect(notesLog.elements == [.task(1)], "and the notes did not hear the board's")
    }

    @Test func aRowItsAppCannotReadMakesItsPagesFetchEverythingAndIsReported() async throws {
        let path = try temporaryPath()
        let reports = AwaitableLog<String>()
        let server = try SQLiteSiteStore(path: path, schemas: [Self.board], reportProblem: { reports.append($0) })
        let other = try SQLiteSiteStore(path: path, schemas: [Self.board])
        let (log, task) = record(server.feed(of: Board.self), following: [.task(1)])
        defer { task.cancel() }
        try await other.withConnection { connection throws(DataError) in
            try connection.run("INSERT INTO changes (app, entity, key) VALUES ('board', 'tsk', 'one')")
        }
        #expect(await log.wait { $0.contains(.everything) }, "its pages fetch what they show rather than miss a change")
        #expect(await reports.wait { !$0.isEmpty })
        let report = reports.elements.first ?? ""
        #expect(report.contains("'board'") && report.contains("'tsk'") && report.contains(path), "\(report)")
    }

    @Test func anEntityNoRowCanHoldIsAnErrorNamingTheAppAndTheDatabaseAndNothingIsWritten() throws {
        let path = try temporaryPath()
        let store = try SQLiteSiteStore(path: path, schemas: [Self.board])
        do {
            try store.withConnection { connection throws(DataError) in
                try store.commit([Broken.bad], in: connection) { () throws(DataError) in
                    try connection.run("UPDATE tasks SET done = 1 WHERE id = 2")
                }
            }
            Issue.record("an entity no row can hold must be refused")
        } catch {
            #expect(error.kind == .invalidData)
            #expect(error.message.contains("'broken'") && error.message.contains(path) && error.message.contains("Nothing was written"), "\(error.message)")
        }
        let done = try store.withConnection { connection throws(DataError) in try connection.query("SELECT done FROM tasks WHERE id = 2")[0][0].integer }
        #expect(done == 0)
    }

    @Test func anActionsWriteHappensOnceWhicheverStoreRunsItAgain() async throws {
        let path = try temporaryPath()
        let (first, second) = (try SQLiteSiteStore(path: path, schemas: [Self.board]), try SQLiteSiteStore(path: path, schemas: [Self.board]))
        let key = ActionKey.random()
        func addTask(on store: SQLiteSiteStore) throws(DataError) {
            try store.withConnection { connection throws(DataError) in
                try store.commit([Board.everything], in: connection) { () throws(DataError) in
                    try connection.run("INSERT INTO tasks (title) VALUES ('Again')")
                }
            }
        }
        try await ActionKey.run(as: key) { try addTask(on: first) }
        await #expect(throws: DataError.alreadyApplied(key)) { try await ActionKey.run(as: key) { try addTask(on: second) } }
        #expect(try await second.hasApplied(key))
        let count = try await first.withConnection { connection throws(DataError) in try connection.query("SELECT COUNT(*) FROM tasks")[0][0].integer }
        #expect(count == 3, "the task was added once")
    }

    /// An `async` call runs on the store's own thread: while another holds the connection,
    /// more callers than Swift's pool has threads wait for it, and the pool runs other work.
    ///
    /// The connection is held, and the pool watched, from a thread of the test's own: were
    /// the callers holding the pool's threads, the test's task could not run to see it. The
    /// 30-second bounds only end a failing run; a passing one waits on events alone.
    @Test func callsWaitingForTheConnectionHoldNoThreadOfSwiftsPool() async throws {
        let store = try SQLiteSiteStore(path: ":memory:", schemas: [Self.board])
        let callers = ProcessInfo.processInfo.activeProcessorCount + 2
        let total = try await Self.callWhileTheConnectionIsHeld(store, by: callers) {
            try await store.withConnection { connection throws(DataError) in
                try connection.query("SELECT COUNT(*) FROM tasks")[0][0].integer
            }
        }
        #expect(total == Int64(2 * callers), "every call ran once the connection was free")
    }

    /// Holds `store`'s connection on a thread of the test's own while `callers` tasks make
    /// `call`, and checks that they all started and that the pool still ran other work while
    /// they waited; returns the sum of their answers, once the connection was let go.
    static func callWhileTheConnectionIsHeld(
        _ store: SQLiteSiteStore, by callers: Int, _ call: @escaping @Sendable () async throws -> Int64
    ) async throws -> Int64 {
        let started = DispatchSemaphore(value: 0)
        let (holding, held) = AsyncStream.makeStream(of: Void.self)
        let (verdicts, verdict) = AsyncStream.makeStream(of: String?.self)
        Thread.detachNewThread {
            try? store.withConnection { _ throws(DataError) in
                held.finish()
                for count in 0..<callers where started.wait(timeout: .now() + 30) == .timedOut {
                    verdict.yield("only \(count) of \(callers) callers started: the others found no thread")
                    return
                }
                let ran = DispatchSemaphore(value: 0)
                Task.detached { ran.signal() }
                verdict.yield(ran.wait(timeout: .now() + 30) == .success ? nil : "the pool ran nothing while the callers waited")
            }
            verdict.finish()
        }
        for await _ in holding {}
        let calls = Task {
            try await withThrowingTaskGroup(of: Int64.self) { group in
                for _ in 0..<callers {
                    group.addTask {
                        started.signal()
                        return try await call()
                    }
                }
                return try await group.reduce(0, +)
            }
        }
        for await problem in verdicts { #expect(problem == nil, "\(problem ?? "")") }
        return try await calls.value
    }

    /// A page per person asking again for the row that changed: the first asks the database,
    /// the rest get its answer, and none of them waits holding a thread of the pool while
    /// another call holds the connection.
    @Test func aSharedAnswerAskedOfTheStoreIsReadOnceAndWaitsForNoThread() async throws {
        let store = try SQLiteSiteStore(path: ":memory:", schemas: [Self.board])
        let answers = SharedAnswers<Int64, Int64>()
        let reads = Atomic(0)
        let count: @Sendable () async throws -> Int64 = {
            try await answers.answer(to: 1, from: store) { connection throws(DataError) in
                reads.add(1, ordering: .relaxed)
                return try connection.query("SELECT COUNT(*) FROM tasks")[0][0].integer
            }
        }
        #expect(try await count() == 2)
        #expect(try await count() == 2)
        #expect(reads.load(ordering: .relaxed) == 1, "asked again while nothing changed, the answer is kept")
        try await store.withConnection { connection throws(DataError) in
            try connection.run("INSERT INTO tasks (title) VALUES ('Tea')")
        }
        #expect(try await count() == 3, "a write makes the next caller read again")
        #expect(reads.load(ordering: .relaxed) == 2)

        // Another call holds the connection: every caller waits for it without a thread.
        let callers = ProcessInfo.processInfo.activeProcessorCount + 2
        let total = try await Self.callWhileTheConnectionIsHeld(store, by: callers, count)
        #expect(total == Int64(3 * callers), "every caller got the kept answer once the connection was free")
        #expect(reads.load(ordering: .relaxed) == 2, "and none read it again")
    }

    /// The thread an `async` call runs on is not the caller's task: the action's key goes
    /// with it, and the write is applied once.
    @Test func anAsyncCallCarriesItsActionsKeyToTheStoresThread() async throws {
        let store = try SQLiteSiteStore(path: ":memory:", schemas: [Self.board])
        let key = ActionKey.random()
        func addTask() async throws {
            try await store.withConnection { connection throws(DataError) in
                try store.commit([Board.everything], in: connection) { () throws(DataError) in
                    try connection.run("INSERT INTO tasks (title) VALUES ('Again')")
                }
            }
        }
        try await ActionKey.run(as: key) { try await addTask() }
        await #expect(throws: DataError.alreadyApplied(key)) { try await ActionKey.run(as: key) { try await addTask() } }
        let count = try await store.withConnection { connection throws(DataError) in try connection.query("SELECT COUNT(*) FROM tasks")[0][0].integer }
        #expect(count == 3)
    }

    @Test func anAppsNewMigrationsRunOnceAndADatabaseNewerThanTheProgramIsRefused() throws {
        let path = try temporaryPath()
        _ = try SQLiteSiteStore(path: path, schemas: [Self.board])
        let grown = SiteSchema(app: "board", steps: Self.boardSteps + ["ALTER TABLE tasks ADD COLUMN due REAL"])
        _ = try SQLiteSiteStore(path: path, schemas: [grown])
        _ = try SQLiteSiteStore(path: path, schemas: [grown])  // nothing left to do
        do {
            _ = try SQLiteSiteStore(path: path, schemas: [Self.board])
            Issue.record("an older program must refuse the newer tables")
        } catch {
            #expect(error.message.contains("version 2 of the tables of the app 'board', newer than this program knows (1)"), "\(error.message)")
        }
    }

    static let boardSteps = ["CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0)"]

    /// An app's store that names the site store it is built on, and forwards nothing itself.
    struct BackedStore: SiteStoreBacked {
        let site: SQLiteSiteStore
        var backingSiteStore: any SiteStore { site }
    }

    @Test func aStoreBackedByTheSiteStoreRecordsTalliesAndClaimsThroughIt() async throws {
        let site = try SQLiteSiteStore(path: ":memory:", schemas: [Self.board])
        let store = BackedStore(site: site)
        #expect(store.location == site.path)
        try await store.listen()
        try await store.record([
            ImpressionRecord(kind: .assignment, scene: "board", variant: "default", unit: "1", module: "tasks", experiment: "task-order", arm: "a")
        ])
        #expect(try site.experimentTallies().first?.assigned == ["a": 1], "recorded in the site store")
        let tallies = try site.experimentTallies()
        #expect(try await store.experimentTallies() == tallies)
        let key = ActionKey.random()
        #expect(try await store.claim(key), "a new key")
        #expect(try await site.hasApplied(key), "claimed in the site store's ledger")
        #expect(try await !store.claim(key))
        #expect(try await store.hasApplied(key))
    }

    /// The tables of `table` in the database at `path`, read apart from any store.
    func tableExists(_ table: String, at path: String) throws -> Bool {
        let connection = try SQLiteConnection(path: path)
        return try !connection.query("SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?", [.text(table)]).isEmpty
    }

    @Test func aPartsFailingStepNamesThePartAndChangesNoPartsTables() throws {
        let path = try temporaryPath()
        let guestbook = SiteSchema(app: "guestbook", steps: ["CREATE TABLE guestbook_messages (id INTEGER PRIMARY KEY)", "CREATE TABLE oops ("])
        do {
            _ = try SQLiteSiteStore(path: path, schemas: [Self.board, guestbook])
            Issue.record("a part whose step fails must fail the opening")
        } catch {
            #expect(error.message.contains("The tables of the part 'guestbook' could not be brought up to date"), "\(error.message)")
            #expect(error.message.contains("Nothing was changed, in any part's tables."), "\(error.message)")
        }
        #expect(try !tableExists("tasks", at: path), "the board's step, made before the guestbook's failed, is rolled back")
        #expect(try !tableExists("guestbook_messages", at: path), "the guestbook's first step is rolled back")
        let fixed = SiteSchema(app: "guestbook", steps: ["CREATE TABLE guestbook_messages (id INTEGER PRIMARY KEY)"])
        _ = try SQLiteSiteStore(path: path, schemas: [Self.board, fixed])
        #expect(try tableExists("tasks", at: path) && tableExists("guestbook_messages", at: path), "both parts' tables once the step is right")
    }

    @Test func twoPartsDeclaringOneAppsTablesAreRefusedBeforeAnythingIsOpened() throws {
        let path = try temporaryPath()
        do {
            _ = try SQLiteSiteStore(path: path, schemas: [Self.board, SiteSchema(app: "board", steps: ["CREATE TABLE cards (id INTEGER)"])])
            Issue.record("two schemas of one app must be refused")
        } catch {
            #expect(error.message.contains("Two parts declare the tables of the app 'board'"), "\(error.message)")
        }
        #expect(!FileManager.default.fileExists(atPath: path), "no database was made")
    }
}
