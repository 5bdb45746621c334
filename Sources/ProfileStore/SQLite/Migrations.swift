import ProfileDomain
import Scenery
import ScenerySiteStore

/// The schema, as numbered steps. A database records how many it has applied in
/// `PRAGMA user_version`; opening applies the rest, each in a transaction.
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
        // 3: the change feed: what each write changed (an entity and its id), written in the
        // write's transaction, read by other processes' stores (see SQLiteProfileStore+Changes).
        changesTable,
        // 4: what pages recorded for experiments: assignments, impressions, exposures (see
        // SQLiteProfileStore+Impressions). Not part of the data set: exports leave it out.
        """
        CREATE TABLE IF NOT EXISTS impressions (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            kind TEXT NOT NULL,
            time REAL NOT NULL,
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
        // 5: the keys of actions whose writes were applied (see SQLiteProfileStore+Actions):
        // an action a page sends again after its server went away is not applied twice.
        // Not part of the data set: exports leave it out.
        """
        CREATE TABLE applied_actions (key TEXT PRIMARY KEY NOT NULL, at REAL NOT NULL) WITHOUT ROWID;
        CREATE INDEX applied_actions_by_time ON applied_actions (at);
        """,
        // 6: a version per draft, counted up by each save: an edit names the version it
        // started from, and a save from an older one is refused (two tabs never overwrite
        // each other silently).
        """
        ALTER TABLE drafts ADD COLUMN version INTEGER NOT NULL DEFAULT 1;
        """,
    ]

    /// The change feed's table. Opening a database whose table was deleted makes it again
    /// (the feed then tells every page to fetch what it shows).
    static let changesTable = """
        CREATE TABLE IF NOT EXISTS changes (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            entity TEXT NOT NULL,
            key TEXT NOT NULL DEFAULT ''
        );
        """

    /// The profile tables as an app of the site store: versioned by `PRAGMA user_version`
    /// (they were before the site store), seeded with the demo data when `seeding`.
    static func schema(seeding: Bool) -> SiteSchema {
        SiteSchema(
            app: ProfileChange.app,
            isCurrent: { connection throws(ProfileError) in try isCurrent(connection, seeding: seeding) },
            prepare: { connection throws(ProfileError) in try migrate(connection, seed: seeding ? DemoData.dataSet : nil) },
            check: { connection throws(ProfileError) in try check(connection, seeding: seeding) })
    }

    /// Brings the schema up to date and, for a new database, seeds it with `seed`, inside
    /// the site store's write transaction: concurrent first runs wait for each other (the
    /// version is read under the write lock), and a run cut off midway (a full disk, a kill)
    /// leaves nothing behind, so the next run starts again. Returns the version the
    /// database had before.
    ///
    /// A database left at version 1 with no users by an earlier, two-step first run is seeded
    /// too: that is the half-made database this replaces.
    @discardableResult
    static func migrate(_ connection: SQLiteConnection, seed: ProfileDataSet?) throws(ProfileError) -> Int {
        let version = Int(try connection.query("PRAGMA user_version").first?.first?.integer ?? 0)
        guard version <= steps.count else {
            throw .storage(
                "The database \(connection.path.quoted) has schema version \(version), newer than this program knows (\(steps.count)); use a newer scenery, or another --database."
            )
        }
        guard version >= 0 else {
            throw .storage(
                "The database \(connection.path.quoted) has schema version \(version), which no version of scenery writes; it was not made by this program: use another --database."
            )
        }
        for index in version..<steps.count {
            try connection.execute(steps[index])
        }
        try connection.execute(changesTable)
        // The site store's change table names each row's app: rows from before are ours.
        if try connection.query("SELECT COUNT(*) FROM pragma_table_info('changes') WHERE name = 'app'").first?.first?.integer == 0 {
            try connection.execute("ALTER TABLE changes ADD COLUMN app TEXT NOT NULL DEFAULT '\(ProfileChange.app)'")
        }
        try connection.execute("PRAGMA user_version = \(steps.count)")
        var halfMade = false
        if version == 1 {
            let users = try connection.query("SELECT COUNT(*) FROM users").first?.first?.integer ?? 0
            halfMade = users == 0
        }
        if let seed, version == 0 || halfMade {
            try SQLiteProfileStore.insertAll(seed, in: connection)
        }
        return version
    }

    /// Whether the schema is at this program's version (and, when `seeding`, has users):
    /// nothing to write.
    static func isCurrent(_ connection: SQLiteConnection, seeding: Bool) throws(ProfileError) -> Bool {
        let version = Int(try connection.query("PRAGMA user_version").first?.first?.integer ?? 0)
        guard version == steps.count, try hasChangesTable(connection),
            try connection.query("SELECT COUNT(*) FROM pragma_table_info('changes') WHERE name = 'app'").first?.first?.integer == 1
        else { return false }
        guard seeding else { return true }
        return try connection.query("SELECT EXISTS (SELECT 1 FROM users)").first?.first?.integer == 1
    }

    /// Whether the change feed's table exists (someone may have deleted it).
    static func hasChangesTable(_ connection: SQLiteConnection) throws(ProfileError) -> Bool {
        try connection.query("SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'changes')").first?.first?.integer == 1
    }

    /// For a database opened read-only: fails unless it can be read as it is (migrations
    /// and seeding would write).
    static func check(_ connection: SQLiteConnection, seeding: Bool) throws(ProfileError) {
        let version = Int(try connection.query("PRAGMA user_version").first?.first?.integer ?? 0)
        guard version == steps.count else {
            throw .storage(
                "The database \(connection.path.quoted) is read-only and has schema version \(version), not \(steps.count): it must be upgraded (or created), which writes. Make its file and folder writable once, or use another --database."
            )
        }
    }
}
