import Foundation
import Scenery
import SceneryLive
import Synchronization

/// A site's SQLite database, which any app builds on: each app's tables and migrations
/// (``SiteSchema``), writes that announce what they changed as the app's own entities to
/// every process on the database (``commit(_:in:_:)``, ``feed(of:)``), and the action
/// ledger that makes each action's write happen once.
///
/// ```swift
/// let store = try SQLiteSiteStore(path: "board.sqlite", schemas: [board])
/// let tasks = store.feed(of: BoardChange.self)          // what modules follow
/// try store.withConnection { connection throws(DataError) in
///     try store.commit([BoardChange.task(7)], in: connection) { () throws(DataError) in
///         try connection.run("UPDATE tasks SET done = 1 WHERE id = ?", [.integer(7)])
///     }
/// }
/// ```
///
/// One connection serves all calls, one at a time.
public final class SQLiteSiteStore: Sendable {
    /// Behind `Locked`, which the thread sanitizer sees: many pages read at once, and the
    /// connection keeps Swift state of its own (its kept statements).
    private let connection: Locked<SQLiteConnection>
    /// The thread `async` calls run on, one at a time (the `async` form of `withConnection(_:)`).
    private let calls = DispatchQueue(label: "scenery.sqlite-site-store")
    /// Where the watcher for other processes' writes stands.
    let watch: Locked<WatchState>
    /// The feeds made so far, by entity type.
    let channels = Locked<[ObjectIdentifier: any ChangeChannel]>([:])
    /// Where a problem that is no caller's error goes (a change row no program of the app
    /// can read).
    let reportProblem: @Sendable (String) -> Void
    /// The database file, or `:memory:`.
    public let path: String

    /// Opens the database at `path`, creating its file if needed (and its directory when
    /// `createsDirectory` is true), and brings the site store's tables and every app's in
    /// `schemas` up to date, in one transaction.
    ///
    /// A database whose file (or folder) this process cannot write is opened for reading:
    /// reads work, and a write fails with an error that says the database is read-only
    /// (see ``isReadOnly``). Pass `requiresWriting` to fail at once instead.
    ///
    /// While another process holds a lock on the database, opening waits up to
    /// `lockTimeout`, calling `whileLocked` once when it starts waiting, then fails with a
    /// message that names the database and what to do. `reportProblem` receives what goes
    /// wrong outside any call (the standard error by default).
    ///
    /// - Throws: `DataError` of kind `storage` if it cannot be opened or migrated (naming the
    ///   part whose step failed; no part's tables change then), two schemas have one app's
    ///   name, its directory does not exist and `createsDirectory` is false, it stays
    ///   locked, or it is read-only and `requiresWriting` is true (or it would need changes
    ///   to be read).
    public init(
        path: String, schemas: [SiteSchema], createsDirectory: Bool = false, requiresWriting: Bool = false,
        lockTimeout: Duration = .seconds(30), whileLocked: () -> Void = {},
        reportProblem: @escaping @Sendable (String) -> Void = SQLiteSiteStore.reportToStandardError
    ) throws(DataError) {
        try SiteSchema.requireDistinctApps(schemas, in: path)
        if path != ":memory:" {
            let directory = URL(filePath: path).deletingLastPathComponent()
            if createsDirectory {
                do {
                    try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                } catch {
                    throw .storage("Cannot create the directory \(directory.path.quoted): \(error.localizedDescription)")
                }
            }
            var isDirectory: ObjCBool = false
            if !FileManager.default.fileExists(atPath: directory.path, isDirectory: &isDirectory) || !isDirectory.boolValue {
                throw .storage("The directory \(directory.path.quoted) of the database \(path.quoted) does not exist; create it first, or choose another path.")
            }
        }
        var connection = try SQLiteConnection(path: path)
        if connection.isReadOnly {
            guard !requiresWriting else {
                throw .storage(
                    "The database \(path.quoted) is read-only (its file or folder cannot be written) and this command changes data; nothing was changed. Make both writable, or use another --database."
                )
            }
            connection = try Self.openReadOnly(path)
        }
        let opened = connection
        try LockWait.retrying(on: opened, path: path, timeout: lockTimeout, whileLocked: whileLocked) { () throws(DataError) in
            if opened.isReadOnly {
                for schema in schemas { try schema.check(opened) }
                try SiteTables.check(opened)
                return
            }
            if path != ":memory:" { try opened.execute("PRAGMA journal_mode = WAL") }
            // Most opens find everything up to date: they read, and take no write lock.
            var isCurrent = try SiteTables.isCurrent(opened)
            for schema in schemas where isCurrent { isCurrent = try schema.isCurrent(opened) }
            if isCurrent { return }
            try opened.transaction { () throws(DataError) in
                // The site's tables first (an app's seed may record actions or changes),
                // then each app's, then the site's again: an app that made a table of the
                // same name before the site store existed (the profile demo) adds to it.
                try opened.execute("CREATE TABLE IF NOT EXISTS site_schema (app TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL)")
                try SiteSchema.prepare(schemas, on: opened)
                try SiteTables.prepare(opened)
            }
        }
        self.path = path
        self.reportProblem = reportProblem
        self.watch = Locked(Self.initialWatchState(opened))
        self.connection = Locked(opened)
    }

    /// Opens a database this process cannot write: with locking when SQLite can make the
    /// WAL's shared-memory file, else as an immutable file (its folder is read-only too).
    private static func openReadOnly(_ path: String) throws(DataError) -> SQLiteConnection {
        let shared = try SQLiteConnection(path: path, mode: .readOnly)
        do {
            _ = try shared.query("PRAGMA user_version")
            return shared
        } catch {
            return try SQLiteConnection(path: path, mode: .immutable)
        }
    }

    /// Writes a problem to the standard error, on a line of its own.
    public static let reportToStandardError: @Sendable (String) -> Void = { line in
        FileHandle.standardError.write(Data("scenery: \(line)\n".utf8))
    }

    /// Whether the database is open for reading only: its file or folder cannot be written
    /// by this process.
    public var isReadOnly: Bool { connection.withLock { $0.isReadOnly } }

    /// Runs `body` with the connection, one caller at a time: reads, and writes through
    /// ``commit(_:in:_:)``.
    @discardableResult
    public func withConnection<T>(_ body: (SQLiteConnection) throws(DataError) -> T) throws(DataError) -> T {
        // `Locked` rethrows untyped errors: carry the typed one out in a `Result`.
        let result = connection.withLock { connection in Result { () throws(DataError) -> T in try body(connection) } }
        return try result.get()
    }

    /// Runs `body` with the connection on the caller's thread if no one holds it, or returns
    /// `nil` at once: for what is quick and never waits on a file lock (reading
    /// ``SharedAnswers``' kept answers), where a hop to the store's thread would cost more
    /// than the work.
    func withConnectionIfFree<T>(_ body: (SQLiteConnection) throws(DataError) -> T) throws(DataError) -> T? {
        let result = connection.withLockIfAvailable { connection in Result { () throws(DataError) -> T in try body(connection) } }
        return try result?.get()
    }

    /// Runs `body` with the connection on the store's own thread, one caller at a time,
    /// while the calling task waits holding no thread.
    ///
    /// SQLite's calls block: a read, a write, a wait of up to 5 s for another process's
    /// lock. Made from an `async` function on a thread of Swift's pool (two threads on a
    /// two-core machine), one call held half of the pool, and a caller waiting for the
    /// connection held the other half. Every `async` call of a store goes through here.
    ///
    /// `body` runs outside the calling task: of its task-local values, only
    /// `WriteContext.current` (what ``commit(_:in:_:)`` reads) is bound there too.
    ///
    /// ```swift
    /// let count = try await store.withConnection { connection throws(DataError) in
    ///     try connection.query("SELECT count(*) FROM tasks").first?.first?.integer ?? 0
    /// }
    /// ```
    @discardableResult
    public func withConnection<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws(DataError) -> T) async throws(DataError) -> T {
        let connection = self.connection
        let calls = self.calls
        // `body` runs on the store's thread while this task waits for it, and is let go of
        // before the task goes on: it never outlives the call.
        let result = await withoutActuallyEscaping(body) { body in
            let call = PendingCall(body)
            // The thread is not the task's: the write's context (its action key, page and
            // writer) goes with the call.
            let context = WriteContext.current
            return await withCheckedContinuation { (continuation: CheckedContinuation<Result<T, DataError>, Never>) in
                calls.async { continuation.resume(returning: context.run { connection.withLock { call.run(on: $0) } }) }
            }
        }
        return try result.get()
    }
}

/// A call waiting for the store's thread: its body, dropped as soon as it has run, before its
/// caller resumes (`withoutActuallyEscaping` checks that nothing holds the body then).
private final class PendingCall<T>: @unchecked Sendable {
    /// Set once, read and cleared once, on the store's thread.
    private var body: (@Sendable (SQLiteConnection) throws(DataError) -> T)?

    init(_ body: @escaping @Sendable (SQLiteConnection) throws(DataError) -> T) { self.body = body }

    func run(on connection: SQLiteConnection) -> Result<T, DataError> {
        defer { body = nil }
        guard let body else { return .failure(DataError(.storage, "A store call ran twice.")) }
        return Result { () throws(DataError) -> T in try body(connection) }
    }
}
