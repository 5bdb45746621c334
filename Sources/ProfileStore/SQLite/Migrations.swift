import ProfileDomain

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
        """
    ]

    /// Applies the steps the database lacks; returns the version it had before.
    @discardableResult
    static func migrate(_ connection: SQLiteConnection) throws(ProfileError) -> Int {
        let version = Int(try connection.query("PRAGMA user_version").first?.first?.integer ?? 0)
        guard version <= steps.count else {
            throw .storage(
                "The database '\(connection.path)' has schema version \(version), newer than this program knows (\(steps.count)); use a newer scenery or another --database.")
        }
        for index in version..<steps.count {
            try connection.transaction { () throws(ProfileError) in
                try connection.execute(steps[index])
                try connection.execute("PRAGMA user_version = \(index + 1)")
            }
        }
        return version
    }
}
