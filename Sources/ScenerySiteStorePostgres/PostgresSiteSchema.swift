import Logging
import PostgresNIO
import Scenery
import SceneryExperiments

/// An app's tables on a ``PostgresSiteStore``: its name and how to bring them up to date.
///
/// Usually numbered steps of SQL (each may hold several statements separated by `;`),
/// applied in order and each once, with the version kept per app in the database
/// (`site_schema`), and data to seed a new database with. Every app's schema is brought up
/// to date in one transaction under an advisory lock when a server connects.
///
/// ```swift
/// let board = PostgresSiteSchema(app: "board", steps: [
///     "CREATE TABLE tasks (id BIGSERIAL PRIMARY KEY, title TEXT NOT NULL, done BOOLEAN NOT NULL DEFAULT false)"
/// ])
/// ```
public struct PostgresSiteSchema: PartSchema {
    /// The app's name (as its entities' `RecordedEntity.app`).
    public let app: String
    /// Brings the app's tables up to date inside the store's transaction; `location` names
    /// the database for messages.
    package let prepare: @Sendable (PostgresConnection, _ location: String, Logger) async throws -> Void

    /// An app whose tables are `steps`, applied in order, each once; `seed` runs after them
    /// when the app's tables are new, in the same transaction.
    public init(app: String, steps: [String], seed: (@Sendable (PostgresConnection, Logger) async throws -> Void)? = nil) {
        self.app = app
        prepare = { connection, location, logger in
            var version = 0
            for try await found in try await connection.query("SELECT version FROM site_schema WHERE app = \(app)", logger: logger).decode(Int.self) {
                version = found
            }
            guard version <= steps.count else {
                throw DataError.storage(
                    "The PostgreSQL database \(location.quoted) has version \(version) of the tables of the app '\(app)', newer than this program knows (\(steps.count)); use a newer program, or another database."
                )
            }
            guard version < steps.count else { return }
            for step in steps[version...] {
                for statement in step.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }) where !statement.isEmpty {
                    try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
                }
            }
            try await connection.query(
                "INSERT INTO site_schema (app, version) VALUES (\(app), \(steps.count)) ON CONFLICT (app) DO UPDATE SET version = EXCLUDED.version",
                logger: logger)
            if version == 0, let seed { try await seed(connection, logger) }
        }
    }

    /// An app that keeps its schema its own way, or brings an older database over before its
    /// steps run (the demo's profile tables, versioned in their own `store_info` before the
    /// site store): `prepare` runs inside the store's transaction and must open none of its own.
    public init(app: String, prepare: @escaping @Sendable (PostgresConnection, _ location: String, Logger) async throws -> Void) {
        self.app = app
        self.prepare = prepare
    }

    /// The site store's own tables besides the change channel: the action ledger and
    /// experiments' records (made if missing, after the apps' tables, in the migration's
    /// transaction; an app that made an `impressions` table of this shape keeps it).
    static let siteTables = [
        "CREATE TABLE IF NOT EXISTS applied_actions (key TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL)",
        "CREATE INDEX IF NOT EXISTS applied_actions_by_time ON applied_actions (at)",
        """
        CREATE TABLE IF NOT EXISTS impressions (
            id BIGSERIAL PRIMARY KEY, kind TEXT NOT NULL, time DOUBLE PRECISION NOT NULL, scene TEXT NOT NULL, variant TEXT NOT NULL,
            unit TEXT, module TEXT, node TEXT, experiment TEXT, arm TEXT
        )
        """,
        "CREATE INDEX IF NOT EXISTS impressions_by_experiment ON impressions (experiment, arm, kind, unit)",
    ]

    /// What went wrong in a part's step, in a sentence: the server's message for a
    /// statement it refused.
    private static func reason(_ error: any Error) -> String {
        if let error = error as? DataError { return error.messageAfterStoragePrefix }
        if let error = error as? PSQLError, let message = error.serverInfo?[.message] {
            return "the server refused a step (\(message), SQLSTATE \(error.serverInfo?[.sqlState] ?? "unknown"))."
        }
        return "\(error)."
    }

    /// The advisory lock key that serialises migrations ("scenery" in ASCII).
    static let migrationLock: Int64 = 0x7363_656E_6572_79

    /// Creates or upgrades the site store's tables and every app's in `schemas`, in one
    /// transaction under the migration lock.
    static func prepare(_ schemas: [PostgresSiteSchema], on connection: PostgresConnection, location: String, logger: Logger) async throws {
        if let app = schemas.map(\.app).firstRepeated() {
            throw DataError(
                .storage,
                "Two parts declare the tables of the app '\(app)' for the PostgreSQL database \(location.quoted); nothing was changed. Give each part's PostgresSiteSchema a name of its own."
            )
        }
        try await connection.query("BEGIN", logger: logger)
        do {
            try await connection.query("SELECT pg_advisory_xact_lock(\(migrationLock))", logger: logger)
            try await connection.query("CREATE TABLE IF NOT EXISTS site_schema (app TEXT PRIMARY KEY, version INTEGER NOT NULL)", logger: logger)
            for schema in schemas {
                do {
                    try await schema.prepare(connection, location, logger)
                } catch {
                    throw DataError(
                        .storage,
                        "The tables of the part '\(schema.app)' could not be brought up to date in the PostgreSQL database \(location.quoted): \(reason(error)) Nothing was changed, in any part's tables. Correct the part's schema steps, or use another database."
                    )
                }
            }
            for statement in siteTables { try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger) }
            try await connection.query("COMMIT", logger: logger)
        } catch {
            _ = try? await connection.query("ROLLBACK", logger: logger)
            throw error
        }
    }
}
