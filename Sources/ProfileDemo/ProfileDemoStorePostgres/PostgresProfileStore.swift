import Foundation
import Logging
import PostgresNIO
import ProfileDemoDomain
import ProfileDemoStore
import Scenery
import SceneryExperiments
import SceneryLive
import ScenerySiteStorePostgres

/// The profile data on a PostgreSQL server: the store for several `scenery serve`
/// processes on one database. It provides the four profile services and the change feed,
/// and passes the same conformance suite as `SQLiteProfileStore`. It is one user of the
/// site store (`PostgresSiteStore`): its pool, writes, change feed across servers and action
/// ledger are the site store's.
///
/// ```swift
/// let store = try await PostgresProfileStore.connect(to: PostgresURL("postgres://scenery@127.0.0.1/scenery"))
/// let services = ProfileServices(store)
/// // …
/// await store.close()
/// ```
///
/// Writes run in transactions (a friendship change also holds a lock on its pair of users,
/// so two changes to one friendship never decide from the same state), retried up to ten
/// times when PostgreSQL reports a serialization failure or deadlock (then `conflict`).
/// Each write announces what it changed with `NOTIFY` in its own transaction, so the change
/// reaches every store on the database (every server) once it commits; see
/// ``changes(to:ignoringWritesOf:)``. A lost connection is `connectionLost`;
/// the pool connects again for the next call.
///
/// The same read asked for by several callers after a change (every open page showing a
/// blog after a like, or a profile after a follow, to the same viewer) is one query, never
/// one that started before the change its caller heard of was published: while the store
/// listens, each answer is kept until the next change (`SharedReads(keeping:)`).
public final class PostgresProfileStore: ProfileDatabase, Sendable {
    /// The site store the profile tables live on.
    public let site: PostgresSiteStore
    /// The site store's feed of profile changes.
    let feed: PostgresChangeFeed<ProfileChange>
    /// Reads shared by the callers asking the same at the same change mark, answers kept
    /// until the next change while the store listens (`SharedReads`).
    let profileReads = SharedReads<ReadQuestion, UserProfile>(keeping: 1_024)
    let blogReads = SharedReads<ReadQuestion, Blog>(keeping: 1_024)
    let blogPageReads = SharedReads<ReadQuestion, Page<Blog>>(keeping: 256)
    let userListReads = SharedReads<ReadQuestion, Page<UserListEntry>>(keeping: 256)

    /// The database's URL (with its password: print ``location`` or `url.redacted`).
    public var url: PostgresURL { site.url }

    public var backingSiteStore: any SiteStore { site }

    private init(site: PostgresSiteStore) {
        self.site = site
        feed = site.feed(of: ProfileChange.self)
    }

    /// Connects to the database at `url`, creating the schema if it has none (and seeding
    /// the demo data into it when `seedDemoData` is true) or upgrading it.
    ///
    /// - Parameters:
    ///   - url: The database's address (`PostgresURL("postgres://USER@HOST:PORT/DB")`).
    ///   - seedDemoData: Whether a database without the schema gets the demo data too.
    ///   - parts: The tables other parts of the app keep in the same database (a guestbook
    ///     beside the profile), brought up to date after the profile's in the same
    ///     transaction, and reached through ``site``.
    ///   - timeout: How long to wait for the server to answer: to connect, and for each call
    ///     to get a connection (then it fails with `connectionLost`). While other calls finish
    ///     on connections, the server is there and busy: a call waits on for its turn.
    ///   - maximumConnections: The size of the connection pool (plus one connection that
    ///     listens for changes once anyone subscribes).
    ///   - logger: Where the driver's background events go (nowhere by default).
    /// - Throws: `ProfileError` of kind `connectionLost` when the server
    ///   cannot be reached (its message names the URL, without the password, and what to
    ///   check), `storage` when the schema is newer than this program's or cannot be made.
    public static func connect(
        to url: PostgresURL, seedDemoData: Bool = true, parts: [PostgresSiteSchema] = [], timeout: Duration = .seconds(10), maximumConnections: Int = 8,
        logger: Logger = Logger(label: "scenery.postgres", factory: { _ in SwiftLogNoOpLogHandler() })
    ) async throws(ProfileError) -> PostgresProfileStore {
        let site = try await PostgresSiteStore.connect(
            to: url, schemas: [PostgresSchema.schema(seed: seedDemoData ? DemoData.dataSet : nil)] + parts, timeout: timeout,
            maximumConnections: maximumConnections, logger: logger)
        return PostgresProfileStore(site: site)
    }

    /// Closes the pool and the listening connection. Calls after this fail.
    public func close() async { await site.close() }

    /// Whether the listening connection is up: `false` before anyone subscribed and while
    /// it reconnects.
    public var isListening: Bool { site.isListening }

    // MARK: The site store's calls, as the services use them

    func reading<T: Sendable>(
        _ action: String, _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws(ProfileError) -> T {
        try await site.reading(action, body)
    }

    @discardableResult
    func writing<T: Sendable>(
        _ action: String, announcing changes: [ProfileChange], locking key: String? = nil,
        _ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T
    ) async throws(ProfileError) -> T {
        try await site.writing(action, announcing: changes, locking: key, body)
    }

    func leasing<T: Sendable>(_ body: @escaping @Sendable (PostgresConnection, Logger) async throws -> T) async throws -> T {
        try await site.leasing(body)
    }

    func renewPoolIfSuspect() async throws { try await site.renewPoolIfSuspect() }

    func failure(_ error: any Error, doing action: String) -> ProfileError { site.failure(error, doing: action) }

    static func rollBack(_ connection: PostgresConnection, logger: Logger) async { await PostgresSiteStore.rollBack(connection, logger: logger) }
}
