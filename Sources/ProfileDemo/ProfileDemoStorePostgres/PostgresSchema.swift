import Foundation
import Logging
import PostgresNIO
import ProfileDemoDomain
import ProfileDemoStore
import Scenery
import ScenerySiteStorePostgres

/// The profile's tables on PostgreSQL, as numbered steps of the site store, the same tables
/// as the SQLite store's (dates as seconds since 1970 in `double precision`, so an export is
/// the same text from either): `site_schema` keeps how many a database has, as for any app's.
/// The site store's own tables (the action ledger, experiments' records) are the site
/// store's.
///
/// Databases made before the profile was an app of the site store counted their steps in
/// `store_info` (three, the first and second with site tables, made since by the site store);
/// the first open brings one over, once (``bridge(_:location:logger:)``).
enum PostgresSchema {
    static let steps: [String] = [
        """
        CREATE TABLE users (
            id TEXT PRIMARY KEY,
            name TEXT NOT NULL DEFAULT '',
            avatar_url TEXT,
            summary TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE blogs (
            id BIGINT PRIMARY KEY,
            author TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            title TEXT NOT NULL,
            body TEXT NOT NULL DEFAULT '',
            created_at DOUBLE PRECISION NOT NULL
        );
        CREATE INDEX blogs_by_author ON blogs (author, created_at DESC, id DESC);
        CREATE TABLE likes (
            blog BIGINT NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
            user_id TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            PRIMARY KEY (blog, user_id)
        );
        CREATE TABLE drafts (
            id BIGINT PRIMARY KEY,
            owner TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            title TEXT NOT NULL DEFAULT '',
            body TEXT NOT NULL DEFAULT '',
            edited_at DOUBLE PRECISION NOT NULL
        );
        CREATE INDEX drafts_by_owner ON drafts (owner, edited_at DESC);
        CREATE TABLE follows (
            follower TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            followee TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            PRIMARY KEY (follower, followee),
            CHECK (follower <> followee)
        );
        CREATE INDEX follows_by_followee ON follows (followee);
        CREATE TABLE friendships (
            requester TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            addressee TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            status TEXT NOT NULL CHECK (status IN ('pending', 'accepted')),
            PRIMARY KEY (requester, addressee),
            CHECK (requester <> addressee)
        );
        """,
        // 2: a version per draft, counted up by each save (see the SQLite store's step 3).
        """
        ALTER TABLE drafts ADD COLUMN version BIGINT NOT NULL DEFAULT 1
        """,
    ]

    /// The `store_info` version a database made before the site store had once all its
    /// steps were applied, which a database made now records too (a program from before opens it).
    static let lastLegacyVersion = 3

    /// How many of ``steps`` a database at each `store_info` version from before has.
    static let stepsAtLegacyVersion = [0, 1, 1, 2]

    /// The profile tables as an app of the site store, seeded with `seed` when new; a
    /// database from before the site store is brought over first.
    static func schema(seed: ProfileDataSet?) -> PostgresSiteSchema {
        let current = PostgresSiteSchema(app: ProfileChange.app, steps: steps) { connection, logger in
            if let seed { try await PostgresProfileStore.insertAll(seed, on: connection, logger: logger) }
            try await connection.query("CREATE TABLE IF NOT EXISTS store_info (key TEXT PRIMARY KEY, value TEXT NOT NULL)", logger: logger)
            try await connection.query(
                "INSERT INTO store_info (key, value) VALUES ('schema_version', \(String(lastLegacyVersion))) ON CONFLICT (key) DO NOTHING", logger: logger)
        }
        return PostgresSiteSchema(app: ProfileChange.app) { connection, location, logger in
            try await bridge(connection, location: location, logger: logger)
            try await current.prepare(connection, location, logger)
        }
    }

    /// Brings a database from before the site store over, inside the site store's
    /// transaction: its profile steps are recorded in `site_schema`, and the rest then run as
    /// for any database.
    static func bridge(_ connection: PostgresConnection, location: String, logger: Logger) async throws {
        var recorded = false
        for try await _ in try await connection.query("SELECT 1 FROM site_schema WHERE app = \(ProfileChange.app)", logger: logger) { recorded = true }
        guard !recorded else { return }
        var hasStoreInfo = false
        for try await exists in try await connection.query("SELECT to_regclass('store_info') IS NOT NULL", logger: logger).decode(Bool.self) {
            hasStoreInfo = exists
        }
        guard hasStoreInfo else { return }
        var legacy: Int?
        for try await text in try await connection.query("SELECT value FROM store_info WHERE key = 'schema_version'", logger: logger).decode(String.self) {
            legacy = Int(text) ?? -1
        }
        guard let legacy else { return }
        guard stepsAtLegacyVersion.indices.contains(legacy) else {
            throw ProfileError.storage(
                "The PostgreSQL database \(location.quoted) has schema version \(legacy), which this program does not know (it knows up to \(lastLegacyVersion)); use a newer scenery, or another database."
            )
        }
        try await connection.query(
            "INSERT INTO site_schema (app, version) VALUES (\(ProfileChange.app), \(stepsAtLegacyVersion[legacy]))", logger: logger)
    }
}
