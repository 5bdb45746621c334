import Foundation
import Scenery
import SceneryExperiments

/// An app's tables on a site store: its name and how to bring them up to date.
///
/// Usually numbered steps of SQL, applied in order and each once, with the version kept
/// per app in the database (`site_schema`), and data to seed a new database with. Every
/// app's schema is brought up to date in one write transaction when the store opens
/// (concurrent first runs wait for each other; a run cut off leaves nothing behind).
///
/// ```swift
/// let board = SiteSchema(app: "board", steps: [
///     "CREATE TABLE tasks (id INTEGER PRIMARY KEY, title TEXT NOT NULL, done INTEGER NOT NULL DEFAULT 0)",
///     "CREATE INDEX tasks_by_title ON tasks (title)",
/// ])
/// let store = try SQLiteSiteStore(path: "board.sqlite", schemas: [board])
/// ```
public struct SiteSchema: PartSchema {
    /// The app's name (as its entities' `RecordedEntity.app`).
    public let app: String
    /// Whether the app's tables are up to date: nothing to write.
    package let isCurrent: @Sendable (SQLiteConnection) throws(DataError) -> Bool
    /// Brings them up to date, inside the store's transaction.
    package let prepare: @Sendable (SQLiteConnection) throws(DataError) -> Void
    /// For a database opened read-only: fails unless it can be read as it is.
    package let check: @Sendable (SQLiteConnection) throws(DataError) -> Void

    /// An app whose tables are `steps`, applied in order, each once; `seed` runs after them
    /// when the app's tables are new, in the same transaction.
    public init(app: String, steps: [String], seed: (@Sendable (SQLiteConnection) throws(DataError) -> Void)? = nil) {
        self.app = app
        isCurrent = { connection throws(DataError) in try Self.version(of: app, in: connection) == steps.count }
        prepare = { connection throws(DataError) in
            let version = try Self.version(of: app, in: connection)
            guard version <= steps.count else {
                throw .storage(
                    "The database \(connection.path.quoted) has version \(version) of the tables of the app '\(app)', newer than this program knows (\(steps.count)); use a newer program, or another database."
                )
            }
            guard version < steps.count else { return }
            for step in steps[version...] { try connection.execute(step) }
            try connection.run(
                "INSERT INTO site_schema (app, version) VALUES (?, ?) ON CONFLICT (app) DO UPDATE SET version = excluded.version",
                [.text(app), .integer(Int64(steps.count))])
            if version == 0, let seed { try seed(connection) }
        }
        check = { connection throws(DataError) in
            let version = try Self.version(of: app, in: connection)
            guard version == steps.count else {
                throw .storage(
                    "The database \(connection.path.quoted) is read-only and has version \(version) of the tables of the app '\(app)', not \(steps.count): it must be upgraded (or created), which writes. Make its file and folder writable once, or use another database."
                )
            }
        }
    }

    /// An app that keeps its schema its own way, or brings an older database over before its
    /// steps run (the demo's profile tables, versioned by `PRAGMA user_version` before the
    /// site store): `prepare` runs inside the store's transaction and must open none of its own.
    public init(
        app: String, isCurrent: @escaping @Sendable (SQLiteConnection) throws(DataError) -> Bool,
        prepare: @escaping @Sendable (SQLiteConnection) throws(DataError) -> Void,
        check: @escaping @Sendable (SQLiteConnection) throws(DataError) -> Void
    ) {
        self.app = app
        self.isCurrent = isCurrent
        self.prepare = prepare
        self.check = check
    }

    /// The version of `app`'s tables recorded in the database (0 when none).
    package static func version(of app: String, in connection: SQLiteConnection) throws(DataError) -> Int {
        guard try SiteTables.exists("site_schema", in: connection) else { return 0 }
        return Int(try connection.query("SELECT version FROM site_schema WHERE app = ?", [.text(app)]).first?.first?.integer ?? 0)
    }
}

extension SiteSchema {
    /// Brings every schema's tables up to date inside the caller's transaction, naming the
    /// part whose step fails (the transaction then rolls back every part's steps).
    static func prepare(_ schemas: [SiteSchema], on connection: SQLiteConnection) throws(DataError) {
        for schema in schemas {
            do {
                try schema.prepare(connection)
            } catch {
                throw DataError(
                    .storage,
                    "The tables of the part '\(schema.app)' could not be brought up to date in the database \(connection.path.quoted): \(error.messageAfterStoragePrefix). Nothing was changed, in any part's tables. Correct the part's schema steps, or use another database."
                )
            }
        }
    }

    /// Refuses schemas of which two have one app's name: each would migrate its tables.
    static func requireDistinctApps(_ schemas: [SiteSchema], in path: String) throws(DataError) {
        if let app = schemas.map(\.app).firstRepeated() {
            throw DataError(
                .storage,
                "Two parts declare the tables of the app '\(app)' for the database \(path.quoted); nothing was opened. Give each part's SiteSchema a name of its own."
            )
        }
    }
}
