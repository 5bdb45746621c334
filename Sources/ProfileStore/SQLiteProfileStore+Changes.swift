import Foundation
import ProfileDomain
import Scenery
import SceneryLive
import ScenerySiteStore
import Synchronization

/// The store's change feed: every write records what it changed in the `changes` table, in
/// its own transaction, and publishes it to this process's subscribers once committed;
/// while anyone subscribes, the store watches for other processes' writes (`PRAGMA
/// data_version`, a cheap read) and publishes theirs from the table.
///
/// The table keeps the newest ``changesKept`` rows. A watcher that finds rows gone that it
/// had not read (it was paused, or a burst outran it), or the table emptied or replaced,
/// publishes ``ProfileChange/everything``: pages fetch what they show again rather than
/// miss a change.
extension SQLiteProfileStore: ChangeFeed {
    /// How many changes the table keeps for other processes to read.
    public static let changesKept: Int64 = 10_000

    /// How often the store looks for other processes' writes while anyone subscribes.
    static let watchInterval: Duration = .milliseconds(200)

    public func changes(to entities: Set<ProfileChange>, ignoringWritesOf writer: ChangeWriter?) -> ChangeStream<ProfileChange> {
        let stream = hub.changes(to: entities, ignoringWritesOf: writer)
        startWatching()
        return stream
    }

    /// How many subscriptions are open (modules that show something live).
    public var subscriptionCount: Int { hub.subscriptionCount }

    /// How many open subscriptions follow `entity`.
    public func subscriptionCount(for entity: ProfileChange) -> Int { hub.subscriptionCount(for: entity) }

    public var changeMark: Int? { hub.changeMark }

    public func hasChanged(_ entities: Set<ProfileChange>, since mark: Int) -> Bool { hub.hasChanged(entities, since: mark) }

    /// Records `changes` in the current transaction of `connection`.
    /// Fails, and so rolls the write back, when the table is gone: a change is never made
    /// unannounced.
    static func record(_ changes: [ProfileChange], in connection: SQLiteConnection) throws(ProfileError) {
        do {
            try insert(changes, in: connection)
        } catch {
            guard (try? Migrations.hasChangesTable(connection)) == false else { throw error }
            throw .storage(
                "The database \(connection.path.quoted) has lost its 'changes' table (open pages learn of writes through it), so nothing was written. Restart the server or run any scenery command on the database to make the table again."
            )
        }
    }

    private static func insert(_ changes: [ProfileChange], in connection: SQLiteConnection) throws(ProfileError) {
        for change in changes {
            let (entity, key) = change.row
            try connection.run("INSERT INTO changes (entity, key) VALUES (?, ?)", [.text(entity), .text(key)])
        }
        try connection.run("DELETE FROM changes WHERE id <= (SELECT MAX(id) FROM changes) - ?", [.integer(changesKept)])
    }

    /// Runs a write that records `changes` (with ``record(_:in:)``), then publishes them
    /// once it committed. Called with the connection held, so the watcher cannot read the
    /// rows as another process's before they are known as this one's.
    ///
    /// A write made for an action records the write's key first (`ActionKey.forNextWrite()`);
    /// when it was recorded already (the action ran before, here or in another process),
    /// the write is rolled back whole and throws `alreadyApplied`.
    func committing<T>(
        _ changes: [ProfileChange], in connection: SQLiteConnection, _ write: () throws(ProfileError) -> T
    ) throws(ProfileError) -> T {
        let action = ActionKey.forNextWrite()
        func attempt() throws(ProfileError) -> T {
            try connection.transaction { () throws(ProfileError) -> T in
                if let action, try !Self.record(action, in: connection) { throw .alreadyApplied(action) }
                let value = try write()
                try Self.record(changes, in: connection)
                return value
            }
        }
        var renumbered = false
        let result: T
        do {
            result = try attempt()
        } catch {
            // A row numbered near Int64.max (no write of this program makes one: the table
            // was edited) uses the numbering up, and SQLite rolls every later write back as
            // "database or disk is full". The feed starts again from 1, with an `everything`
            // row so every page in every process fetches what it shows; then the write runs.
            guard (try? Self.lastChangeID(connection)).map({ $0 > Int64.max - Self.changesKept }) == true else { throw error }
            try connection.transaction { () throws(ProfileError) in
                try connection.run("DELETE FROM changes")
                try connection.run("UPDATE sqlite_sequence SET seq = 0 WHERE name = 'changes'")
                try Self.insert([.everything], in: connection)
            }
            renumbered = true
            result = try attempt()
        }
        watch.withLock { state in
            let last = (try? connection.query("SELECT MAX(id) FROM changes").first?.first?.checkedInteger) ?? nil
            let version = (try? connection.query("PRAGMA data_version").first?.first?.checkedInteger) ?? nil
            guard let last else { return }
            if renumbered {
                // The feed starts again from 1: watch from here.
                state.lastSeen = last
                state.own = []
            } else if version == state.dataVersion {
                // No other process wrote since the last look: every row up to here is ours.
                state.lastSeen = max(state.lastSeen, last)
            } else {
                for id in (last - Int64(changes.count) + 1)...last { state.own.insert(id) }
            }
        }
        hub.publish(renumbered ? [.everything] : changes)
        return result
    }

    struct WatchState {
        var lastSeen: Int64 = 0
        var dataVersion: Int64?
        /// Rows this store wrote that the watcher has not passed yet.
        var own: Set<Int64> = []
        var isWatching = false
        var hasFailed = false
    }

    /// Where the watcher starts: the newest change now.
    static func initialWatchState(_ connection: SQLiteConnection) -> WatchState {
        var state = WatchState()
        state.lastSeen = (try? lastChangeID(connection)) ?? 0
        state.dataVersion = (try? connection.query("PRAGMA data_version").first?.first?.checkedInteger) ?? nil
        return state
    }

    /// The id of the newest change ever recorded (rows may have been removed since; the
    /// table's ids are never reused).
    static func lastChangeID(_ connection: SQLiteConnection) throws(ProfileError) -> Int64 {
        let sql = "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'changes'), 0), COALESCE((SELECT MAX(id) FROM changes), 0))"
        return try connection.query(sql).first?.first?.checkedInteger ?? 0
    }

    private func startWatching() {
        guard path != ":memory:" else { return }  // no other process can write it
        let start = watch.withLock { state -> Bool in
            guard !state.isWatching else { return false }
            state.isWatching = true
            return true
        }
        guard start else { return }
        Task.detached { [weak self] in
            while !Task.isCancelled {
                try? await Task.sleep(for: Self.watchInterval)
                guard let store = self else { return }
                guard store.hub.subscriptionCount > 0 else {
                    store.watch.withLock { $0.isWatching = false }
                    // A subscriber may have come between the count and the flag.
                    if store.hub.subscriptionCount > 0 { store.startWatching() }
                    return
                }
                let changes = store.readOthersChanges()
                if !changes.isEmpty { store.hub.publish(changes) }
            }
        }
    }

    /// Other processes' changes since the last look, or `.everything` when some were lost.
    func readOthersChanges() -> [ProfileChange] {
        (try? withConnection { connection throws(ProfileError) -> [ProfileChange] in
            do {
                let version = try connection.query("PRAGMA data_version").first?.first?.checkedInteger
                let (lastSeen, unchanged) = watch.withLock { state in (state.lastSeen, state.dataVersion == version) }
                if unchanged { return [] }
                let bounds = try connection.query("SELECT COALESCE(MIN(id), 0), COALESCE(MAX(id), 0) FROM changes")[0]
                let (low, high) = (bounds[0].checkedInteger ?? 0, bounds[1].checkedInteger ?? 0)
                let rows = try connection.query(
                    "SELECT id, entity, key FROM changes WHERE id > ? ORDER BY id LIMIT ?", [.integer(lastSeen), .integer(Self.changesKept + 1)])
                let newest = max(try Self.lastChangeID(connection), rows.last?[0].checkedInteger ?? 0)
                return watch.withLock { state -> [ProfileChange] in
                    state.dataVersion = version
                    state.hasFailed = false
                    defer { state.lastSeen = newest }
                    // Rows gone before they were read, or a table emptied or replaced.
                    if high < lastSeen || (rows.first.map { _ in low > lastSeen + 1 } ?? false) || rows.count > Int(Self.changesKept) {
                        state.own = []
                        return [.everything]
                    }
                    var changes: Set<ProfileChange> = []
                    for row in rows {
                        if state.own.remove(row[0].checkedInteger ?? 0) != nil { continue }
                        changes.insert(ProfileChange(entity: row[1].text ?? "", key: row[2].text ?? "") ?? .everything)
                    }
                    return Array(changes)
                }
            } catch {
                // The table cannot be read (deleted, locked for long): pages fetch again once,
                // rather than miss what changed.
                return watch.withLock { state in
                    defer { state.hasFailed = true }
                    return state.hasFailed ? [] : [.everything]
                }
            }
        }) ?? []
    }
}

extension ProfileChange {
    /// The change as a row of the `changes` table.
    package var row: (entity: String, key: String) {
        switch self {
        case .blog(let id): ("blog", id.description)
        case .blogs(let author): ("blogs", author.rawValue)
        case .profile(let user): ("profile", user.rawValue)
        case .relationships(let user): ("relationships", user.rawValue)
        case .drafts(let owner): ("drafts", owner.rawValue)
        case .everything: ("everything", "")
        }
    }

    /// The change a row of the `changes` table records, if it is one this program writes.
    package init?(entity: String, key: String) {
        switch entity {
        case "blog":
            guard let id = BlogID(key) else { return nil }
            self = .blog(id)
        case "blogs": self = .blogs(of: UserID(key))
        case "profile": self = .profile(UserID(key))
        case "relationships": self = .relationships(of: UserID(key))
        case "drafts": self = .drafts(of: UserID(key))
        case "everything": self = .everything
        default: return nil
        }
    }
}
