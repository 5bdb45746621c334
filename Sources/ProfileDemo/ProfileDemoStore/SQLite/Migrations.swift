import ProfileDemoDomain
import Scenery
import ScenerySiteStore

/// The profile's tables, as numbered steps of the site store: `site_schema` keeps how many a
/// database has, as for any app's (`SiteSchema`). The site store's own tables (the change
/// feed, the action ledger, experiments' records) are the site store's, made by it.
///
/// Databases made before the profile was an app of the site store counted their steps in
/// `PRAGMA user_version` (six, three of them the site's tables, made since by the site
/// store); the first open that writes brings one over, once (``bridge(_:)``).
enum Migrations {
    static let steps: [String] = [
        // 1: users, blogs, likes, drafts, follows, friendships.
        """
        CREATE TABLE users (
            id TEXT PRIMARY KEY NOT NULL,
            name TEXT NOT NULL DEFAULT '',
            avatar_url TEXT,
            summary TEXT NOT NULL DEFAULT ''
        );
        CREATE TABLE blogs (
            id INTEGER PRIMARY KEY,
            author TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            title TEXT NOT NULL,
            body TEXT NOT NULL DEFAULT '',
            created_at REAL NOT NULL
        );
        CREATE INDEX blogs_by_author ON blogs(author, created_at DESC, id DESC);
        CREATE TABLE likes (
            blog INTEGER NOT NULL REFERENCES blogs(id) ON DELETE CASCADE,
            user TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            PRIMARY KEY (blog, user)
        );
        CREATE TABLE drafts (
            id INTEGER PRIMARY KEY,
            owner TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            title TEXT NOT NULL DEFAULT '',
            body TEXT NOT NULL DEFAULT '',
            edited_at REAL NOT NULL
        );
        CREATE INDEX drafts_by_owner ON drafts(owner, edited_at DESC);
        CREATE TABLE follows (
            follower TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            followee TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            PRIMARY KEY (follower, followee),
            CHECK (follower <> followee)
        );
        CREATE INDEX follows_by_followee ON follows(followee);
        CREATE TABLE friendships (
            requester TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            addressee TEXT NOT NULL REFERENCES users(id) ON DELETE CASCADE,
            status TEXT NOT NULL CHECK (status IN ('pending', 'accepted')),
            PRIMARY KEY (requester, addressee),
            CHECK (requester <> addressee)
        );
        """,
        // 2: facts about the store itself. Its real purpose: databases made from version 2 on
        // are created and seeded in one transaction, so a version-1 database without users is
        // known to be a first run that was cut off.
        """
        CREATE TABLE store_info (key TEXT PRIMARY KEY NOT NULL, value TEXT NOT NULL);
        """,
        // 3: a version per draft, counted up by each save: an edit names the version it
        // started from, and a save from an older one is refused (two tabs never overwrite
        // each other silently).
        """
        ALTER TABLE drafts ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
        """,
    ]

    /// The `PRAGMA user_version` a database made before the site store had once all its
    /// steps were applied, which a database made now keeps too (a program from before opens it).
    static let lastLegacyVersion = 6

    /// How many of ``steps`` a database at each `PRAGMA user_version` from before has
    /// (its steps 3 to 5 were the site's tables).
    static let stepsAtLegacyVersion = [0, 1, 2, 2, 2, 2, 3]

    /// The profile tables as an app of the site store, seeded with the demo data when
    /// `seeding` and new; a database from before the site store is brought over first.
    static func schema(seeding: Bool) -> SiteSchema {
        // A new database: the demo data when seeding, and the version a program from before
        // reads as its last.
        let current = SiteSchema(app: ProfileChange.app, steps: steps) { connection throws(DataError) in
            if seeding { try SQLiteProfileStore.insertAll(DemoData.dataSet, in: connection) }
            try connection.execute("PRAGMA user_version = \(lastLegacyVersion)")
        }
        return SiteSchema(
            app: ProfileChange.app,
            // A database from before has no version in `site_schema`: never current.
            isCurrent: current.isCurrent,
            prepare: { connection throws(DataError) in
                let halfMade = try bridge(connection)
                try current.prepare(connection)
                if seeding, halfMade { try SQLiteProfileStore.insertAll(DemoData.dataSet, in: connection) }
            },
            check: { connection throws(DataError) in
                if let legacy = try legacyVersion(connection), legacy == lastLegacyVersion { return }
                try current.check(connection)
            })
    }

    /// The `PRAGMA user_version` of a database made before the site store that has not been
    /// brought over yet, or `nil`.
    ///
    /// - Throws: `ProfileError.storage` for a version no program of this name wrote or a
    ///   newer program's.
    static func legacyVersion(_ connection: SQLiteConnection) throws(ProfileError) -> Int? {
        guard try SiteSchema.version(of: ProfileChange.app, in: connection) == 0 else { return nil }
        let version = Int(try connection.query("PRAGMA user_version").first?.first?.integer ?? 0)
        guard version <= lastLegacyVersion else {
            throw .storage(
                "The database \(connection.path.quoted) has schema version \(version), newer than this program knows (\(lastLegacyVersion)); use a newer scenery, or another --database."
            )
        }
        guard version >= 0 else {
            throw .storage(
                "The database \(connection.path.quoted) has schema version \(version), which no version of scenery writes; it was not made by this program: use another --database."
            )
        }
        return version == 0 ? nil : version
    }

    /// Brings a database from before the site store over, inside the site store's write
    /// transaction: the profile steps it has are recorded in `site_schema` (the profile's
    /// schema then runs the rest, as for any database) and its change rows are the profile's.
    /// Returns whether it is a first run of old that was cut off between the schema and the
    /// seed (version 1, no users): the caller seeds it once its steps have run.
    static func bridge(_ connection: SQLiteConnection) throws(ProfileError) -> Bool {
        guard let legacy = try legacyVersion(connection) else { return false }
        let changeColumns = try connection.query("SELECT name FROM pragma_table_info('changes')").compactMap { $0.first?.text }
        if !changeColumns.isEmpty, !changeColumns.contains("app") {
            try connection.execute("ALTER TABLE changes ADD COLUMN app TEXT NOT NULL DEFAULT '\(ProfileChange.app)'")
        }
        // `site_schema` is the site store's, made before any app's schema runs.
        try connection.run("INSERT INTO site_schema (app, version) VALUES (?, ?)", [.text(ProfileChange.app), .integer(Int64(stepsAtLegacyVersion[legacy]))])
        try connection.execute("PRAGMA user_version = \(lastLegacyVersion)")
        guard legacy == 1 else { return false }
        return try connection.query("SELECT COUNT(*) FROM users").first?.first?.integer == 0
    }
}
