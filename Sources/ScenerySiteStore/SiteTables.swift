import Scenery

/// The site store's own tables, beside the apps': the change feed (`changes`: a row per
/// entity a write changed, with its app), the action ledger (`applied_actions`), experiments'
/// records (`impressions`) and the version of each app's tables (`site_schema`).
enum SiteTables {
    /// Made if missing on every open that writes (an app's migrations may have made a
    /// table of the same shape already; a deleted `changes` table is made again).
    static let statements = """
        CREATE TABLE IF NOT EXISTS changes (
            id INTEGER PRIMARY KEY AUTOINCREMENT,
            entity TEXT NOT NULL,
            key TEXT NOT NULL DEFAULT '',
            app TEXT NOT NULL
        );
        CREATE TABLE IF NOT EXISTS applied_actions (key TEXT PRIMARY KEY NOT NULL, at REAL NOT NULL) WITHOUT ROWID;
        CREATE INDEX IF NOT EXISTS applied_actions_by_time ON applied_actions (at);
        CREATE TABLE IF NOT EXISTS site_schema (app TEXT PRIMARY KEY NOT NULL, version INTEGER NOT NULL);
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
        """

    /// Whether the tables are there, the change table with its `app` column.
    static func isCurrent(_ connection: SQLiteConnection) throws(DataError) -> Bool {
        for table in ["site_schema", "applied_actions", "impressions"] where try !exists(table, in: connection) { return false }
        return try changesHaveApps(connection)
    }

    /// Makes what is missing. A change table made before it had apps is refused: the app
    /// that made it adds the column (with its own name as the default) when it migrates.
    static func prepare(_ connection: SQLiteConnection) throws(DataError) {
        try connection.execute(statements)
        guard try changesHaveApps(connection) else {
            throw .storage(
                "The database \(connection.path.quoted) has a 'changes' table without an 'app' column, made by an older program; open it once with the program that made it (it adds the column), or use another database."
            )
        }
    }

    /// For a database opened read-only.
    static func check(_ connection: SQLiteConnection) throws(DataError) {
        guard try isCurrent(connection) else {
            throw .storage(
                "The database \(connection.path.quoted) is read-only and lacks the site store's tables: making them writes. Make its file and folder writable once, or use another database."
            )
        }
    }

    /// Whether a table exists.
    static func exists(_ table: String, in connection: SQLiteConnection) throws(DataError) -> Bool {
        try connection.query("SELECT EXISTS (SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = ?)", [.text(table)]).first?.first?.integer == 1
    }

    /// Whether the change table exists with its `app` column.
    static func changesHaveApps(_ connection: SQLiteConnection) throws(DataError) -> Bool {
        try connection.query("SELECT COUNT(*) FROM pragma_table_info('changes') WHERE name = 'app'").first?.first?.integer == 1
    }
}
