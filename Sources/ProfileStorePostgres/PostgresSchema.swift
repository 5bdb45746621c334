import Foundation
import Logging
import PostgresNIO
import ProfileDomain
import ProfileStore
import Scenery
import ScenerySiteStorePostgres

/// The schema on PostgreSQL, as numbered steps, the same tables as the SQLite store's
/// (dates as seconds since 1970 in `double precision`, so an export is the same text from
/// either). `store_info` records how many steps a database has; opening applies the rest,
/// all in one transaction under an advisory lock, so servers started together migrate once.
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
        CREATE TABLE IF NOT EXISTS impressions (
            id BIGSERIAL PRIMARY KEY,
            kind TEXT NOT NULL,
            time DOUBLE PRECISION NOT NULL,
            scene TEXT NOT NULL,
            variant TEXT NOT NULL,
            unit TEXT,
            module TEXT,
            node TEXT,
            experiment TEXT,
            arm TEXT
        );
        CREATE INDEX IF NOT EXISTS impressions_by_experiment ON impressions (experiment, arm, kind, unit);
        """,
        // 2: the keys of applied actions and claimed one-time keys (PostgresProfileStore+Actions).
        """
        CREATE TABLE applied_actions (key TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL);
        CREATE INDEX applied_actions_by_time ON applied_actions (at);
        """,
        // 3: a version per draft, counted up by each save (see the SQLite store's step 6).
        """
        ALTER TABLE drafts ADD COLUMN version BIGINT NOT NULL DEFAULT 1
        """,
    ]

    /// The profile tables as an app of the site store, versioned in their own `store_info`
    /// (they were before the site store), seeded with `seed` when new.
    static func schema(seed: ProfileDataSet?) -> PostgresSiteSchema {
        PostgresSiteSchema(app: ProfileChange.app) { connection, location, logger in
            try await migrate(connection, seed: seed, location: location, logger: logger)
        }
    }

    /// Creates or upgrades the schema and, for a new database, seeds it, inside the site
    /// store's transaction.
    static func migrate(_ connection: PostgresConnection, seed: ProfileDataSet?, location: String, logger: Logger) async throws {
        try await connection.query("CREATE TABLE IF NOT EXISTS store_info (key TEXT PRIMARY KEY, value TEXT NOT NULL)", logger: logger)
        var version = 0
        for try await text in try await connection.query("SELECT value FROM store_info WHERE key = 'schema_version'", logger: logger)
            .decode(String.self)
        {
            version = Int(text) ?? -1
        }
        guard (0...steps.count).contains(version) else {
            throw ProfileError.storage(
                "The PostgreSQL database \(location.quoted) has schema version \(version), which this program does not know (it knows up to \(steps.count)); use a newer scenery, or another database."
            )
        }
        for step in steps[version...] {
            for statement in step.split(separator: ";").map({ $0.trimmingCharacters(in: .whitespacesAndNewlines) }) where !statement.isEmpty {
                try await connection.query(PostgresQuery(unsafeSQL: statement), logger: logger)
            }
        }
        let current = String(steps.count)
        try await connection.query(
            "INSERT INTO store_info (key, value) VALUES ('schema_version', \(current)) ON CONFLICT (key) DO UPDATE SET value = EXCLUDED.value",
            logger: logger)
        if let seed, version == 0 {
            try await PostgresProfileStore.insertAll(seed, on: connection, logger: logger)
        }
    }
}
