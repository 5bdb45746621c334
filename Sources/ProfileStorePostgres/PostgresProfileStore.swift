import Foundation
import Logging
import NIOCore
import PostgresNIO
import ProfileDomain
import ProfileStore
import Scenery

/// The profile data on a PostgreSQL server: the store for several `scenery serve`
/// processes on one database. It provides the four profile services and the change feed,
/// and passes the same conformance suite as ``ProfileStore/SQLiteProfileStore``.
///
/// ```swift
/// let store = try await PostgresProfileStore.connect(to: PostgresURL("postgres://scenery@127.0.0.1/scenery"))
/// let services = ProfileServices(store)
/// // …
/// await store.close()
/// ```
///
/// Writes run in serializable transactions, retried a few times when PostgreSQL reports a
/// serialization failure or deadlock (then ``ProfileDomain/ProfileError/Kind/conflict``).
/// Each write announces what it changed with `NOTIFY` in its own transaction, so the change
/// reaches every store on the database (every server) once it commits; see
/// ``changes(to:)``. A lost connection is ``ProfileDomain/ProfileError/Kind/connectionLost``;
/// the pool connects again for the next call.
public final class PostgresProfileStore: ProfileDatabase, Sendable {
    let client: PostgresClient
    let configuration: PostgresConnection.Configuration
    let logger: Logger
    private let running: Task<Void, Never>
    /// This process's subscribers to changes, by entity.
    let hub = ProfileChangeHub()
    /// The connection that listens for other stores' changes, once anyone subscribes.
    let listener: Locked<ChangeListener?> = Locked(nil)
    /// Tells this store's own notifications from others' (each store publishes its own at once).
    let origin = UUID().uuidString
    /// The database's URL, without its password.
    public let url: PostgresURL

    public var location: String { url.redacted }

    private init(url: PostgresURL, configuration: PostgresConnection.Configuration, clientConfiguration: PostgresClient.Configuration, logger: Logger) {
        self.url = url
        self.configuration = configuration
        self.logger = logger
        let client = PostgresClient(configuration: clientConfiguration, backgroundLogger: logger)
        self.client = client
        running = Task.detached { await client.run() }
    }

    /// Connects to the database at `url`, creating the schema if it has none (and seeding
    /// the demo data into it when `seedDemoData` is true) or upgrading it.
    ///
    /// - Parameters:
    ///   - timeout: How long to wait for the server to answer at all.
    ///   - maximumConnections: The size of the connection pool (plus one connection that
    ///     listens for changes once anyone subscribes).
    /// - Throws: ``ProfileDomain/ProfileError`` of kind `connectionLost` when the server
    ///   cannot be reached (its message names the URL, without the password, and what to
    ///   check), `storage` when the schema is newer than this program's or cannot be made.
    public static func connect(
        to url: PostgresURL, seedDemoData: Bool = true, timeout: Duration = .seconds(10), maximumConnections: Int = 8,
        logger: Logger = Logger(label: "scenery.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(ProfileError) -> PostgresProfileStore {
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
        let store = PostgresProfileStore(url: url, configuration: connection, clientConfiguration: pool, logger: logger)
        do {
            // The first connection is made here, so a wrong address fails now, with its reason.
            let first = try await PostgresConnection.connect(configuration: connection, id: 0, logger: logger)
            do {
                try await PostgresSchema.prepare(on: first, seed: seedDemoData ? DemoData.dataSet : nil, location: url.redacted, logger: logger)
            } catch {
                try? await first.close()
                throw error
            }
            try? await first.close()
        } catch {
            await store.close()
            throw store.profileError(error, doing: "open")
        }
        return store
    }

    /// Closes the pool and the listening connection. Calls after this fail.
    public func close() async {
        listener.withLock { $0 }?.stop()
        running.cancel()
        _ = await running.value
    }

    deinit {
        running.cancel()
    }
}

extension Duration {
    /// The duration in whole nanoseconds.
    var nanoseconds: Int64 {
        let (seconds, attoseconds) = components
        return seconds * 1_000_000_000 + attoseconds / 1_000_000_000
    }
}
