import Foundation
import Logging
import PostgresNIO
import Scenery
import SceneryLive

/// The change feed across servers: every write sends `NOTIFY scenery_changes` with what it
/// changed (entities and ids, never data) in its own transaction, so PostgreSQL delivers it
/// to every listening store once it commits, and never when it rolls back. A store publishes
/// its own writes to this process's subscribers at once, and others' from its listening
/// connection, a dedicated one that connects again by itself when it is lost, each app's
/// changes to that app's feeds only; on reconnecting it tells every feed `everything`, so
/// pages fetch again what they show rather than miss what changed meanwhile.
extension PostgresSiteStore {
    /// The channel of `LISTEN` and `NOTIFY`.
    static let channel = "scenery_changes"

    /// How many subscribers are told to fetch again at a time after the listener reconnects
    /// (one wave every 50 ms: 1,000 pages over half a second).
    static let refetchWave = 100

    /// The longest payload sent; a write that changed more announces `everything`
    /// (PostgreSQL's limit is 8,000 bytes).
    static let largestPayload = 4_000

    /// The feed of `Entity`'s changes on this database, made at the first call: what its
    /// modules follow. Changes of other apps never reach it.
    public func feed<Entity: RecordedEntity>(of entity: Entity.Type) -> PostgresChangeFeed<Entity> {
        let channel = channels.withLock { channels -> PostgresEntityChannel<Entity> in
            if let known = channels[ObjectIdentifier(entity)] as? PostgresEntityChannel<Entity> { return known }
            let made = PostgresEntityChannel<Entity>()
            channels[ObjectIdentifier(entity)] = made
            return made
        }
        return PostgresChangeFeed(store: self, hub: channel.hub)
    }

    /// Starts the listening connection if it is not running, and waits until it listens:
    /// changes other servers commit from then on reach this store's subscribers. A server
    /// calls it before it takes requests.
    ///
    /// - Throws: `connectionLost` when the first attempt
    ///   to listen fails (the listener keeps trying).
    public func listen() async throws(DataError) {
        let listener = startListening()
        do {
            try await listener.waitUntilListening()
        } catch {
            throw dataError(error, doing: "listen for changes")
        }
    }

    /// Whether the listening connection is up: `false` before anyone subscribed and while
    /// it reconnects.
    public var isListening: Bool { listener.withLock { $0 }?.isListening ?? false }

    /// The listening connection, started if it is not running.
    func startListening() -> ChangeListener {
        listener.withLock { listener in
            if let listener { return listener }
            // A lost listening connection means the server went away: the pool's connections
            // went with it, so calls check the server before waiting on the pool.
            let started = ChangeListener(store: self, configuration: configuration, origin: origin, logger: logger) { [poolIsSuspect] in
                poolIsSuspect.withLock { $0 = true }
            }
            listener = started
            return started
        }
    }

    /// Runs a write in a transaction that announces `changes` as `Entity`'s app's with
    /// `NOTIFY` (and first records the key of the action's write, `WriteContext.current.nextWriteKey()`,
    /// refusing the write with `alreadyApplied` when it was recorded already), retrying it on
    /// a serialization failure or deadlock (up to ten times, after a short random pause),
    /// then publishes the changes to this process's subscribers, in this task (so a module
    /// writing through `LiveChanges.writing(_:)` is not told of its own write, unless the
    /// write's outcome is unsure: `connectionLost` or `alreadyApplied`). `locking`
    /// names rows the write reads before it decides (a friendship's pair): writes with the
    /// same key wait for each other.
    ///
    /// - Throws: `DataError`: what `body` threw, as a `DataError` (`conflict` after ten
    ///   tries), `alreadyApplied` (also when the connection went as the write committed,
    ///   which the action's recorded key shows), or `invalidData` when an entity cannot be
    ///   recorded.
    @discardableResult
    public func writing<T: Sendable, Entity: RecordedEntity>(
        _ action: String, announcing changes: [Entity], locking key: String? = nil,
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws(DataError) -> T {
        let payload = try Self.payload(changes, origin: origin, location: location)
        let hub = (channels.withLock { $0[ObjectIdentifier(Entity.self)] } as? PostgresEntityChannel<Entity>)?.hub
        do {
            let value = try await write(action, payload: changes.isEmpty ? nil : payload, locking: key, body)
            hub?.publish(changes)
            return value
        } catch let error where error.kind == .alreadyApplied || error.kind == .connectionLost {
            // It may be in the database (committed as its connection went, or by an earlier
            // run), and this server's own notification is not heard again: its pages fetch,
            // the writer's too, since what it was told (failed, or applied before) need not
            // be what is stored.
            WriteContext.current.writing(as: nil).run { hub?.publish(changes) }
            throw error
        }
    }

    /// Runs a write that announces nothing (and records the action's key first, as
    /// ``writing(_:announcing:locking:_:)`` does).
    @discardableResult
    public func writing<T: Sendable>(
        _ action: String, locking key: String? = nil, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws(DataError) -> T {
        try await write(action, payload: nil, locking: key, body)
    }

    func write<T: Sendable>(
        _ action: String, payload: String?, locking key: String?, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws(DataError) -> T {
        let actionKey = WriteContext.current.nextWriteKey()
        var attempt = 0
        while true {
            attempt += 1
            do {
                try await renewPoolIfSuspect()
                return try await leasing { connection, logger in
                    try await connection.query("BEGIN", logger: logger)
                    if let key {
                        try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(key)))", logger: logger)
                    }
                    do {
                        // The action's key first: a second run of the action (on any
                        // server, even at the same moment) waits for the first's key and
                        // then writes nothing.
                        if let actionKey, try await !Self.record(actionKey, on: connection, logger: logger) {
                            throw DataError.alreadyApplied(actionKey)
                        }
                        let value = try await body(connection, logger)
                        if let payload {
                            try await connection.query("SELECT pg_notify(\(Self.channel), \(payload))", logger: logger)
                        }
                        try await connection.query("COMMIT", logger: logger)
                        return value
                    } catch {
                        await Self.rollBack(connection, logger: logger)
                        throw error
                    }
                }
            } catch {
                let failure = failure(error, doing: action)
                // The connection went while the write ran: it may have committed, its answer
                // lost. The action's key, recorded in the same transaction, says which; a write
                // that did is reported as applied (its caller reads what is stored).
                if failure.kind == .connectionLost, let actionKey, (try? await hasApplied(actionKey)) == true {
                    throw DataError.alreadyApplied(actionKey)
                }
                guard failure.kind == .conflict, attempt < 10 else { throw failure }
                try? await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * attempt))))
            }
        }
    }

    /// The notification's text: the writing store and what changed (app, entity, id), as
    /// JSON; `everything` for the app when it would be longer than ``largestPayload``.
    ///
    /// - Throws: `invalidData` naming the app, the entity and the database when an entity
    ///   cannot be recorded.
    static func payload<Entity: RecordedEntity>(_ changes: [Entity], origin: String, location: String) throws(DataError) -> String {
        let rows = try Entity.records(of: changes, for: location).map { [Entity.app, $0.kind, $0.id] }
        let encoded = (try? JSONSerialization.data(withJSONObject: ["o": origin, "c": rows])).map { String(decoding: $0, as: UTF8.self) }
        if let encoded, encoded.utf8.count <= largestPayload { return encoded }
        let everything = (try? JSONSerialization.data(withJSONObject: ["o": origin, "c": [[Entity.app, "everything", ""]]]))
        return everything.map { String(decoding: $0, as: UTF8.self) } ?? "{}"
    }

    /// What a notification announces: nothing when it is this store's own (already
    /// published), else its rows (app, entity, id); `nil` rows when it is not one this
    /// program writes (everyone fetches everything).
    static func rows(inPayload payload: String, origin: String) -> (isOwn: Bool, rows: [[String]]?) {
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any],
            let rows = object["c"] as? [[String]], rows.allSatisfy({ $0.count == 3 })
        else { return (false, nil) }
        return (object["o"] as? String == origin, rows)
    }

    /// Hands a notification's rows to each app's feeds (everything to all when it is not one
    /// this program writes).
    func publish(notification payload: String) {
        let (isOwn, rows) = Self.rows(inPayload: payload, origin: origin)
        guard !isOwn else { return }
        let channels = channels.withLock { Array($0.values) }
        guard let rows else {
            for channel in channels { channel.publishEverything() }
            return
        }
        let byApp = Dictionary(grouping: rows, by: { $0[0] })
        for channel in channels {
            guard let rows = byApp[channel.app] else { continue }
            channel.publish(rows.map { ($0[1], $0[2]) }, database: location, report: { [logger] in logger.warning("\($0)") })
        }
    }

    /// Tells every feed that anything may have changed, in waves of ``refetchWave``.
    func publishEverythingInWaves() async {
        for channel in channels.withLock({ Array($0.values) }) {
            await channel.publishEverything(inWavesOf: Self.refetchWave) { try? await Task.sleep(for: .milliseconds(50)) }
        }
    }

    /// Tells every feed that anything may have changed, at once.
    func publishEverything() {
        for channel in channels.withLock({ Array($0.values) }) { channel.publishEverything() }
    }
}

/// The dedicated connection on which a store listens for other stores' changes.
final class ChangeListener: Sendable {
    private struct State {
        var isListening = false
        var waiters: [CheckedContinuation<Void, any Error>] = []
        var connection: PostgresConnection?
        var isStopped = false
    }

    private let state = Locked(State())
    private let task: Locked<Task<Void, Never>?> = Locked(nil)

    init(
        store: PostgresSiteStore, configuration: PostgresConnection.Configuration, origin: String, logger: Logger,
        onLost: @escaping @Sendable () -> Void
    ) {
        let started = Task.detached(priority: .userInitiated) { [state, weak store] in
            var connected = false
            var delay = Duration.milliseconds(50)
            var number = 1
            while !Task.isCancelled {
                do {
                    let connection = try await PostgresConnection.connect(configuration: configuration, id: number, logger: logger)
                    number += 1
                    let stopped = state.withLock { state in
                        state.connection = connection
                        return state.isStopped
                    }
                    if stopped {
                        try? await connection.close()
                        return
                    }
                    // Given up on when the connection closes under it: the driver may never
                    // end the notifications of a connection the server closed (after a
                    // restart), and this server would hear no other server again.
                    let (wasConnected, began) = (connected, Locked(false))
                    do {
                        try await PostgresSiteStore.givingUpIfClosed(connection) { [weak store] in
                            try await connection.listen(on: PostgresSiteStore.channel) { notifications in
                                let waiters = state.withLock { state in
                                    state.isListening = true
                                    defer { state.waiters = [] }
                                    return state.waiters
                                }
                                for waiter in waiters { waiter.resume() }
                                // Changes made while no connection listened are unknown: fetch
                                // again, in waves, so that the pages of the server do not all
                                // fetch in the same instant the server is back.
                                if wasConnected {
                                    Task { await store?.publishEverythingInWaves() }
                                }
                                began.withLock { $0 = true }
                                for try await notification in notifications {
                                    store?.publish(notification: notification.payload)
                                }
                            }
                        }
                    } catch {
                        if began.withLock({ $0 }) { (connected, delay) = (true, .milliseconds(50)) }
                        try? await connection.close()
                        throw error
                    }
                    if began.withLock({ $0 }) { (connected, delay) = (true, .milliseconds(50)) }
                    try? await connection.close()
                } catch {
                    let waiters = state.withLock { state in
                        state.isListening = false
                        defer { state.waiters = [] }
                        return state.waiters
                    }
                    for waiter in waiters { waiter.resume(throwing: error) }
                    if connected {
                        // What changes now is unheard: pages fetch again, and a fetch that
                        // fails while the server is away shows that what they show may be
                        // out of date (until the fetch after reconnecting succeeds).
                        onLost()
                        store?.publishEverything()
                    }
                    logger.debug("Listening for changes failed; connecting again", metadata: ["error": "\(String(reflecting: error))"])
                }
                state.withLock { $0.isListening = false }
                // Back off while the server is away, up to two seconds between attempts.
                try? await Task.sleep(for: delay)
                delay = min(delay * 2, .seconds(2))
            }
        }
        task.withLock { $0 = started }
    }

    /// Whether the connection listens now.
    var isListening: Bool { state.withLock { $0.isListening } }

    /// Returns once the connection listens, or throws the error of the next failed attempt.
    func waitUntilListening() async throws {
        try await withCheckedThrowingContinuation { (continuation: CheckedContinuation<Void, any Error>) in
            let listening = state.withLock { state -> Bool in
                if state.isListening { return true }
                state.waiters.append(continuation)
                return false
            }
            if listening { continuation.resume() }
        }
    }

    /// Stops listening and closes the connection.
    func stop() {
        task.withLock { $0 }?.cancel()
        let connection = state.withLock { state in
            state.isStopped = true
            return state.connection
        }
        if let connection { Task { try? await connection.close() } }
    }
}
