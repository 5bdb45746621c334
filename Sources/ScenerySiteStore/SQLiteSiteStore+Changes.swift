import Foundation
import Scenery
import SceneryLive
import Synchronization

/// The change feed: every write records what it changed in the `changes` table (an app, an
/// entity and its id), in its own transaction, and publishes it to this process's
/// subscribers of that app once committed; while anyone subscribes, the store watches for
/// other processes' writes (`PRAGMA data_version`, a cheap read) and publishes theirs from
/// the table, each to its own app's feeds.
///
/// The table keeps the newest ``changesKept`` rows. A watcher that finds rows gone that it
/// had not read (it was paused, or a burst outran it), or the table emptied or replaced,
/// tells every feed `everything`: pages fetch what they show again rather than miss a
/// change.
extension SQLiteSiteStore {
    /// How many changes the table keeps for other processes to read.
    public static let changesKept: Int64 = 10_000

    /// How often the store looks for other processes' writes while anyone subscribes.
    static let watchInterval: Duration = .milliseconds(200)

    /// The feed of `Entity`'s changes on this database, made at the first call: what its
    /// modules follow. Changes of other apps never reach it.
    public func feed<Entity: RecordedEntity>(of entity: Entity.Type) -> SiteChangeFeed<Entity> {
        let channel = channels.withLock { channels -> EntityChannel<Entity> in
            if let known = channels[ObjectIdentifier(entity)] as? EntityChannel<Entity> { return known }
            let made = EntityChannel<Entity>()
            channels[ObjectIdentifier(entity)] = made
            return made
        }
        return SiteChangeFeed(store: self, hub: channel.hub)
    }

    /// Runs `write` in a transaction of `connection` (from `withConnection(_:)`, either form) that
    /// records `changes` as `Entity`'s app's, then publishes them to this process's feeds of
    /// the app once committed (in this task, so a module writing through
    /// `LiveChanges.writing(_:)` is not told of its own write).
    ///
    /// A write made for an action records the write's key first (`WriteContext.current.nextWriteKey()`);
    /// when it was recorded already (the action ran before, here or in another process),
    /// the write is rolled back whole and throws `DataError` of kind `alreadyApplied`.
    ///
    /// - Throws: `DataError` of kind `invalidData` when an entity cannot be recorded (an
    ///   app name or kind outside the letters a row allows; nothing is written), or what
    ///   `write` throws (the transaction is rolled back).
    @discardableResult
    public func commit<Entity: RecordedEntity, T>(
        _ changes: [Entity], in connection: SQLiteConnection, _ write: () throws(DataError) -> T
    ) throws(DataError) -> T {
        let rows = try Self.rows(of: changes, in: connection)
        let (result, renumbered) = try commitRows(rows, in: connection, write)
        if let channel = channels.withLock({ $0[ObjectIdentifier(Entity.self)] }) {
            if renumbered { channel.publishEverything() } else { (channel as? EntityChannel<Entity>)?.hub.publish(changes) }
        }
        if renumbered { publishEverythingToAll() }
        return result
    }

    /// Runs `write` in a transaction of `connection` that tells every app's feeds, here and
    /// in other processes, `everything` once committed: a write that replaces what several
    /// apps keep (an import of every part's data).
    func commitEverything<T>(in connection: SQLiteConnection, _ write: () throws(DataError) -> T) throws(DataError) -> T {
        let value = try commitRows([Row(app: "", kind: "everything", id: "")], in: connection, write).value
        publishEverythingToAll()
        return value
    }

    /// Runs `write` in a transaction of `connection` that announces nothing (and records
    /// the action's key first, as ``commit(_:in:_:)`` does).
    @discardableResult
    public func commit<T>(in connection: SQLiteConnection, _ write: () throws(DataError) -> T) throws(DataError) -> T {
        try commitRows([], in: connection, write).value
    }

    /// The rows `changes` are recorded as; an entity that cannot be is an error naming the
    /// app, the entity and the database.
    static func rows<Entity: RecordedEntity>(of changes: [Entity], in connection: SQLiteConnection) throws(DataError) -> [Row] {
        try Entity.records(of: changes, for: connection.path).map { Row(app: Entity.app, kind: $0.kind, id: $0.id) }
    }

    /// One row of the change table.
    struct Row: Hashable, Sendable {
        var app: String
        var kind: String
        var id: String
    }

    /// The transaction: the action's key first, the write, the rows; renumbers the table
    /// (and returns `renumbered`) when its numbering ran out.
    private func commitRows<T>(_ rows: [Row], in connection: SQLiteConnection, _ write: () throws(DataError) -> T) throws(DataError) -> (
        value: T, renumbered: Bool
    ) {
        let action = WriteContext.current.nextWriteKey()
        func attempt() throws(DataError) -> T {
            try connection.transaction { () throws(DataError) -> T in
                if let action, try !Self.record(action, in: connection) { throw .alreadyApplied(action) }
                let value = try write()
                try Self.record(rows, in: connection)
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
            try connection.transaction { () throws(DataError) in
                try connection.run("DELETE FROM changes")
                try connection.run("UPDATE sqlite_sequence SET seq = 0 WHERE name = 'changes'")
                try Self.insert([Row(app: "", kind: "everything", id: "")], in: connection)
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
            } else if !rows.isEmpty {
                for id in (last - Int64(rows.count) + 1)...last { state.own.insert(id) }
            }
        }
        return (result, renumbered)
    }

    /// Records `rows` in the current transaction of `connection`. Fails, and so rolls the
    /// write back, when the table is gone: a change is never made unannounced.
    static func record(_ rows: [Row], in connection: SQLiteConnection) throws(DataError) {
        guard !rows.isEmpty else { return }
        do {
            try insert(rows, in: connection)
        } catch {
            guard (try? SiteTables.exists("changes", in: connection)) == false else { throw error }
            throw .storage(
                "The database \(connection.path.quoted) has lost its 'changes' table (open pages learn of writes through it), so nothing was written. Restart the server or run any scenery command on the database to make the table again."
            )
        }
    }

    private static func insert(_ rows: [Row], in connection: SQLiteConnection) throws(DataError) {
        for row in rows {
            try connection.run("INSERT INTO changes (app, entity, key) VALUES (?, ?, ?)", [.text(row.app), .text(row.kind), .text(row.id)])
        }
        try connection.run("DELETE FROM changes WHERE id <= (SELECT MAX(id) FROM changes) - ?", [.integer(changesKept)])
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
    public static func lastChangeID(_ connection: SQLiteConnection) throws(DataError) -> Int64 {
        let sql = "SELECT MAX(COALESCE((SELECT seq FROM sqlite_sequence WHERE name = 'changes'), 0), COALESCE((SELECT MAX(id) FROM changes), 0))"
        return try connection.query(sql).first?.first?.checkedInteger ?? 0
    }

    /// How many subscriptions are open, over every feed.
    var subscriptionCount: Int { channels.withLock { $0.values.reduce(0) { $0 + $1.subscriptionCount } } }

    /// Starts the watcher for other processes' writes, if it is not running.
    func startWatching() {
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
                guard store.subscriptionCount > 0 else {
                    store.watch.withLock { $0.isWatching = false }
                    // A subscriber may have come between the count and the flag.
                    if store.subscriptionCount > 0 { store.startWatching() }
                    return
                }
                store.publishOthersChanges()
            }
        }
    }

    /// Publishes what other processes wrote since the last look, each app's to its feeds,
    /// or `everything` to all when some rows were lost.
    func publishOthersChanges() {
        switch readOthersChanges() {
        case .none: break
        case .lost: publishEverythingToAll()
        case .rows(let rows):
            let byApp = Dictionary(grouping: rows, by: \.app)
            for channel in channels.withLock({ Array($0.values) }) {
                guard let rows = byApp[channel.app] else { continue }
                channel.publish(rows, database: path, report: reportProblem)
            }
            // A renumbering (app "") tells every app.
            if byApp[""] != nil { publishEverythingToAll() }
        }
    }

    private func publishEverythingToAll() {
        for channel in channels.withLock({ Array($0.values) }) { channel.publishEverything() }
    }

    /// What other processes wrote.
    enum OthersChanges {
        case none
        case lost
        case rows([Row])
    }

    /// Other processes' changes since the last look, or `.lost` when some were lost.
    func readOthersChanges() -> OthersChanges {
        (try? withConnection { connection throws(DataError) -> OthersChanges in
            do {
                let version = try connection.query("PRAGMA data_version").first?.first?.checkedInteger
                let (lastSeen, unchanged) = watch.withLock { state in (state.lastSeen, state.dataVersion == version) }
                if unchanged { return .none }
                let bounds = try connection.query("SELECT COALESCE(MIN(id), 0), COALESCE(MAX(id), 0) FROM changes")[0]
                let (low, high) = (bounds[0].checkedInteger ?? 0, bounds[1].checkedInteger ?? 0)
                let rows = try connection.query(
                    "SELECT id, app, entity, key FROM changes WHERE id > ? ORDER BY id LIMIT ?", [.integer(lastSeen), .integer(Self.changesKept + 1)])
                let newest = max(try Self.lastChangeID(connection), rows.last?[0].checkedInteger ?? 0)
                return watch.withLock { state -> OthersChanges in
                    state.dataVersion = version
                    state.hasFailed = false
                    defer { state.lastSeen = newest }
                    // Rows gone before they were read, or a table emptied or replaced.
                    if high < lastSeen || (rows.first.map { _ in low > lastSeen + 1 } ?? false) || rows.count > Int(Self.changesKept) {
                        state.own = []
                        return .lost
                    }
                    var others: [Row] = []
                    for row in rows where state.own.remove(row[0].checkedInteger ?? 0) == nil {
                        others.append(Row(app: row[1].text ?? "", kind: row[2].text ?? "", id: row[3].text ?? ""))
                    }
                    return others.isEmpty ? .none : .rows(others)
                }
            } catch {
                // The table cannot be read (deleted, locked for long): pages fetch again once,
                // rather than miss what changed.
                return watch.withLock { state in
                    defer { state.hasFailed = true }
                    return state.hasFailed ? .none : .lost
                }
            }
        }) ?? .none
    }
}

/// One app's feed inside a store, whatever its entity type.
protocol ChangeChannel: AnyObject, Sendable {
    var app: String { get }
    var subscriptionCount: Int { get }
    func publish(_ rows: [SQLiteSiteStore.Row], database: String, report: (String) -> Void)
    func publishEverything()
}

/// The feed of one entity type: its hub, and how it reads rows back.
final class EntityChannel<Entity: RecordedEntity>: ChangeChannel {
    let hub = ChangeHub<Entity>()

    var app: String { Entity.app }

    var subscriptionCount: Int { hub.subscriptionCount }

    func publish(_ rows: [SQLiteSiteStore.Row], database: String, report: (String) -> Void) {
        hub.publish(Entity.changes(recordedAs: rows.map { ($0.kind, $0.id) }, in: database, report: report))
    }

    func publishEverything() { hub.publish([Entity.everything]) }
}
