import Foundation
import Logging
import NIOCore
import PostgresNIO
import Scenery
import SceneryLive

/// A site's PostgreSQL database, for several servers on one database: each app's tables and
/// migrations (``PostgresSiteSchema``), writes that announce what they changed as the app's
/// own entities with `NOTIFY` in their own transaction, so the change reaches every server
/// once it commits (``writing(_:announcing:locking:_:)``, ``feed(of:)``), and the action
/// ledger that makes each action's write happen once.
///
/// ```swift
/// let store = try await PostgresSiteStore.connect(to: PostgresURL("postgres://scenery@127.0.0.1/board"), schemas: [board])
/// let feed = store.feed(of: BoardChange.self)  // what the board's modules follow
/// try await store.writing("finish a task", announcing: [BoardChange.task(7)]) { connection, logger in
///     try await connection.query("UPDATE tasks SET done = true WHERE id = 7", logger: logger)
/// }
/// await store.close()
/// ```
///
/// Writes run in transactions, retried up to ten times when PostgreSQL reports a
/// serialization failure or deadlock (then `conflict`). A lost connection is
/// `connectionLost`; the pool connects again for the next call, and a call that gets no
/// connection fails after the `timeout` of ``connect(to:schemas:timeout:maximumConnections:logger:)``.
public final class PostgresSiteStore: Sendable {
    /// The connection pool and the task that runs it.
    struct Pool {
        let client: PostgresClient
        let running: Task<Void, Never>

        init(_ configuration: PostgresClient.Configuration, logger: Logger) {
            let client = PostgresClient(configuration: configuration, backgroundLogger: logger)
            self.client = client
            running = Task.detached { await client.run() }
        }
    }

    private let pool: Locked<Pool>
    /// Set when a call lost its connection: the pool may have stopped trying (its circuit
    /// breaker), so the next call checks the server with a connection of its own and, once
    /// the server answers, starts a new pool.
    let poolIsSuspect = Locked(false)
    let clientConfiguration: PostgresClient.Configuration
    let configuration: PostgresConnection.Configuration
    let logger: Logger
    /// How long a call waits for a connection while no other call gets one (the `timeout` of
    /// ``connect(to:schemas:timeout:maximumConnections:logger:)``).
    let timeout: Duration
    /// When a call last finished its work on a connection of the pool: the server answered then.
    let lastAnswer = Locked<ContinuousClock.Instant?>(nil)
    /// The feeds made so far, by entity type.
    let channels = Locked<[ObjectIdentifier: any PostgresChannel]>([:])
    /// The connection that listens for other stores' changes, once anyone subscribes.
    let listener: Locked<ChangeListener?> = Locked(nil)
    /// Tells this store's own notifications from others' (each store publishes its own at once).
    let origin = UUID().uuidString
    /// The database's URL (with its password: print ``location`` or `url.redacted`).
    public let url: PostgresURL

    /// Where the data lives, for messages: the URL without its password.
    public var location: String { url.redacted }

    private init(
        url: PostgresURL, configuration: PostgresConnection.Configuration, clientConfiguration: PostgresClient.Configuration, timeout: Duration,
        logger: Logger
    ) {
        self.url = url
        self.timeout = timeout
        self.configuration = configuration
        self.clientConfiguration = clientConfiguration
        self.logger = logger
        pool = Locked(Pool(clientConfiguration, logger: logger))
    }

    /// The connection pool now.
    var client: PostgresClient { pool.withLock { $0.client } }

    /// After a lost connection: checks that the server answers (a connection of its own,
    /// closed at once) and then replaces the pool, so calls work again as soon as the server
    /// is back rather than when the old pool's back-off ends.
    ///
    /// - Throws: The connection's error while the server does not answer.
    public func renewPoolIfSuspect() async throws {
        guard poolIsSuspect.withLock({ $0 }) else { return }
        let probe = try await PostgresConnection.connect(configuration: configuration, id: -1, logger: logger)
        try? await probe.close()
        let old = pool.withLock { pool -> Pool? in
            guard poolIsSuspect.withLock({ $0 }) else { return nil }
            defer { pool = Pool(clientConfiguration, logger: logger) }
            return pool
        }
        poolIsSuspect.withLock { $0 = false }
        old?.running.cancel()
    }

    /// Connects to the database at `url` and brings the site store's tables and every app's
    /// in `schemas` up to date, in one transaction under an advisory lock (servers started
    /// together migrate once).
    ///
    /// - Parameters:
    ///   - url: The database's address (`PostgresURL("postgres://USER@HOST:PORT/DB")`).
    ///   - schemas: The apps' tables.
    ///   - timeout: How long to wait for the server to answer: to connect, and for each call
    ///     to get a connection (then it fails with `connectionLost`). While other calls finish
    ///     on connections, the server is there and busy: a call waits on for its turn.
    ///   - maximumConnections: The size of the connection pool (plus one connection that
    ///     listens for changes once anyone subscribes).
    ///   - logger: Where the driver's background events go (nowhere by default).
    /// - Throws: `DataError` of kind `connectionLost` when the server cannot be reached (its
    ///   message names the URL, without the password, and what to check), `storage` when a
    ///   schema is newer than this program's or cannot be made.
    public static func connect(
        to url: PostgresURL, schemas: [PostgresSiteSchema], timeout: Duration = .seconds(10), maximumConnections: Int = 8,
        logger: Logger = Logger(label: "scenery.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(DataError) -> PostgresSiteStore {
        let tls: PostgresConnection.Configuration.TLS
        do {
            switch url.tls {
            case .disable: tls = .disable
            case .prefer: tls = .prefer(try NIOSSLContext(configuration: .makeClientConfiguration()))
            case .require: tls = .require(try NIOSSLContext(configuration: .makeClientConfiguration()))
            }
        } catch {
            throw .storage("Cannot set up TLS for \(url.redacted.quoted): \(error); try ?sslmode=disable on a private network.")
        }
        var connection = PostgresConnection.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database, tls: tls)
        connection.options.connectTimeout = TimeAmount.nanoseconds(timeout.nanoseconds)
        var pool = PostgresClient.Configuration(
            host: url.host, port: url.port, username: url.user, password: url.password, database: url.database,
            tls: url.tls == .disable ? .disable : url.tls == .prefer ? .prefer(.makeClientConfiguration()) : .require(.makeClientConfiguration()))
        pool.options.connectTimeout = timeout
        pool.options.maximumConnections = max(1, maximumConnections)
        pool.options.keepAliveBehavior = nil
        let store = PostgresSiteStore(url: url, configuration: connection, clientConfiguration: pool, timeout: timeout, logger: logger)
        do {
            // The first connection is made here, so a wrong address fails now, with its reason.
            let first = try await PostgresConnection.connect(configuration: connection, id: 0, logger: logger)
            do {
                try await PostgresSiteSchema.prepare(schemas, on: first, location: url.redacted, logger: logger)
            } catch {
                try? await first.close()
                throw error
            }
            try? await first.close()
        } catch {
            await store.close()
            throw store.dataError(error, doing: "open")
        }
        return store
    }

    /// Closes the pool and the listening connection. Calls after this fail.
    public func close() async {
        listener.withLock { $0 }?.stop()
        let running = pool.withLock { $0.running }
        running.cancel()
        _ = await running.value
    }

    deinit {
        listener.withLock { $0 }?.stop()
        pool.withLock { $0.running }.cancel()
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
