import Foundation
import Logging
import PostgresNIO
import ProfileDomain
import ProfileStore
import Scenery
import SceneryLive

/// The change feed across servers: every write sends `NOTIFY scenery_changes` with what it
/// changed (entities and ids, never data) in its own transaction, so PostgreSQL delivers it
/// to every listening store once it commits, and never when it rolls back. A store publishes
/// its own writes to this process's subscribers at once, and others' from its listening
/// connection, a dedicated one that connects again by itself when it is lost; on
/// reconnecting it publishes `ProfileChange.everything`, so pages fetch
/// again what they show rather than miss what changed meanwhile.
extension PostgresProfileStore {
    /// The channel of `LISTEN` and `NOTIFY`.
    static let channel = "scenery_changes"

    /// How many subscribers are told to fetch again at a time after the listener reconnects
    /// (one wave every 50 ms: 1,000 pages over half a second).
    static let refetchWave = 100

    /// The longest payload sent; a write that changed more announces `everything`
    /// (PostgreSQL's limit is 8,000 bytes).
    static let largestPayload = 4_000

    public func changes(to entities: Set<ProfileChange>, ignoringWritesOf writer: ChangeWriter?) -> ChangeStream<ProfileChange> {
        let stream = hub.changes(to: entities, ignoringWritesOf: writer)
        _ = startListening()
        return stream
    }

    /// Starts the listening connection if it is not running, and waits until it listens:
    /// changes other servers commit from then on reach this store's subscribers. A server
    /// calls it before it takes requests.
    ///
    /// - Throws: `connectionLost` when the first attempt
    ///   to listen fails (the listener keeps trying).
    public func listen() async throws(ProfileError) {
        let listener = startListening()
        do {
            try await listener.waitUntilListening()
        } catch {
            throw profileError(error, doing: "listen for changes")
        }
    }

    /// Whether the listening connection is up: `false` before anyone subscribed and while
    /// it reconnects.
    public var isListening: Bool { listener.withLock { $0 }?.isListening ?? false }

    /// How many subscriptions are open (modules that show something live).
    public var subscriptionCount: Int { hub.subscriptionCount }

    /// How many open subscriptions follow `entity`.
    public func subscriptionCount(for entity: ProfileChange) -> Int { hub.subscriptionCount(for: entity) }

    public var changeMark: Int? { hub.changeMark }

    public func hasChanged(_ entities: Set<ProfileChange>, since mark: Int) -> Bool { hub.hasChanged(entities, since: mark) }

    private func startListening() -> ChangeListener {
        listener.withLock { listener in
            if let listener { return listener }
            // A lost listening connection means the server went away: the pool's connections
            // went with it, so calls check the server before waiting on the pool.
            let started = ChangeListener(hub: hub, configuration: configuration, origin: origin, logger: logger) { [poolIsSuspect] in
                poolIsSuspect.withLock { $0 = true }
            }
            listener = started
            return started
        }
    }

    /// Runs a write in a transaction that announces `changes` (and first records the key
    /// of the action's write, `ActionKey.forNextWrite()`, refusing the write with
    /// `alreadyApplied` when it was recorded already), retrying it on a serialization
    /// failure or deadlock (up to ten times, after a short random pause), then publishes the
    /// changes to this process's subscribers. `locking` names rows the write reads before it
    /// decides (a friendship's pair): writes with the same key wait for each other.
    func writing<T: Sendable>(
        _ action: String, announcing changes: [ProfileChange], locking key: String? = nil,
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws(ProfileError) -> T {
        let payload = Self.payload(changes, origin: origin)
        let actionKey = ActionKey.forNextWrite()
        var attempt = 0
        while true {
            attempt += 1
            do {
                try await renewPoolIfSuspect()
                let value = try await leasing { connection, logger in
                    try await connection.query("BEGIN", logger: logger)
                    if let key {
                        try await connection.query("SELECT pg_advisory_xact_lock(hashtext(\(key)))", logger: logger)
                    }
                    do {
                        // The action's key first: a second run of the action (on any
                        // server, even at the same moment) waits for the first's key and
                        // then writes nothing.
                        if let actionKey, try await !Self.record(actionKey, on: connection, logger: logger) {
                            throw ProfileError.alreadyApplied(actionKey)
                        }
                        let value = try await body(connection, logger)
                        if !changes.isEmpty {
                            try await connection.query("SELECT pg_notify(\(Self.channel), \(payload))", logger: logger)
                        }
                        try await connection.query("COMMIT", logger: logger)
                        return value
                    } catch {
                        await Self.rollBack(connection, logger: logger)
                        throw error
                    }
                }
                hub.publish(changes)
                return value
            } catch {
                let failure = failure(error, doing: action)
                guard failure.kind == .conflict, attempt < 10 else { throw failure }
                try? await Task.sleep(for: .milliseconds(Int.random(in: 1...(5 * attempt))))
            }
        }
    }

    /// The notification's text: the writing store and what changed, as JSON.
    static func payload(_ changes: [ProfileChange], origin: String) -> String {
        let rows = changes.map { [$0.record.kind, $0.record.id] }
        let encoded = (try? JSONSerialization.data(withJSONObject: ["o": origin, "c": rows])).map { String(decoding: $0, as: UTF8.self) }
        if let encoded, encoded.utf8.count <= largestPayload { return encoded }
        return #"{"o":"\#(origin)","c":[["everything",""]]}"#
    }

    /// The changes a notification announces, or `nil` when it is this store's own (already
    /// published). A payload this program did not write announces `everything`.
    static func changes(inPayload payload: String, origin: String) -> [ProfileChange]? {
        guard let object = try? JSONSerialization.jsonObject(with: Data(payload.utf8)) as? [String: Any],
            let rows = object["c"] as? [[String]]
        else { return [.everything] }
        if object["o"] as? String == origin { return nil }
        return rows.map { row in row.count == 2 ? ProfileChange(kind: row[0], id: row[1]) ?? .everything : .everything }
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
        hub: ChangeHub<ProfileChange>, configuration: PostgresConnection.Configuration, origin: String, logger: Logger,
        onLost: @escaping @Sendable () -> Void
    ) {
        let started = Task.detached(priority: .userInitiated) { [state] in
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
                    do {
                        try await connection.listen(on: PostgresProfileStore.channel) { notifications in
                            let waiters = state.withLock { state in
                                state.isListening = true
                                defer { state.waiters = [] }
                                return state.waiters
                            }
                            for waiter in waiters { waiter.resume() }
                            // Changes made while no connection listened are unknown: fetch
                            // again, in waves, so that the pages of the server do not all
                            // fetch in the same instant the server is back.
                            if connected {
                                Task {
                                    await hub.publishEverything(inWavesOf: PostgresProfileStore.refetchWave) { try? await Task.sleep(for: .milliseconds(50)) }
                                }
                            }
                            connected = true
                            delay = .milliseconds(50)
                            for try await notification in notifications {
                                if let changes = PostgresProfileStore.changes(inPayload: notification.payload, origin: origin) {
                                    hub.publish(changes)
                                }
                            }
                        }
                    } catch {
                        try? await connection.close()
                        throw error
                    }
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
                        hub.publish([.everything])
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
