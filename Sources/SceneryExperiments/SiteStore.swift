import Scenery
import SceneryLive

/// What a site store keeps on a database for every app on it, beside each app's own
/// tables: the action ledger, experiments' records, and hearing other processes' writes.
///
/// `SQLiteSiteStore` and `PostgresSiteStore` are site stores; an app's store built on one
/// declares it (``SiteStoreBacked``) and is a site store with nothing to forward, and so is
/// a wrapper of that store (the tool's `ToolStore`).
public protocol SiteStore: ActionLedger {
    /// Where the data lives, for messages: a file path, or a URL without its password.
    var location: String { get }

    /// Starts hearing other processes' writes now; a server calls it before taking pages.
    func listen() async throws(DataError)

    /// Appends experiments' records (assignments, impressions, exposures), in one transaction.
    func record(_ records: [ImpressionRecord]) async throws(DataError)

    /// How many distinct units each arm of each experiment was assigned and exposed.
    func experimentTallies() async throws(DataError) -> [ExperimentTally]
}

/// A store built on a site store, which it names: its location, ledger, experiments'
/// records and listening are the site store's.
///
/// ```swift
/// public final class SQLiteBoardStore: BoardDatabase, SiteStoreBacked {
///     public let site: SQLiteSiteStore
///     public var backingSiteStore: any SiteStore { site }
///     // location, listen(), record(_:), experimentTallies(), hasApplied(_:) and claim(_:)
///     // are the site store's.
/// }
/// ```
public protocol SiteStoreBacked: SiteStore {
    /// The site store this store is built on (or wraps).
    var backingSiteStore: any SiteStore { get }
}

extension SiteStoreBacked {
    public var location: String { backingSiteStore.location }

    public func listen() async throws(DataError) { try await backingSiteStore.listen() }

    public func record(_ records: [ImpressionRecord]) async throws(DataError) { try await backingSiteStore.record(records) }

    public func experimentTallies() async throws(DataError) -> [ExperimentTally] { try await backingSiteStore.experimentTallies() }

    public func hasApplied(_ key: ActionKey) async throws -> Bool { try await backingSiteStore.hasApplied(key) }

    public func claim(_ key: ActionKey) async throws -> Bool { try await backingSiteStore.claim(key) }
}

/// An app's tables on one kind of site store: what a part of an app (a feature package,
/// the app itself) declares so that the store of the app's database makes and migrates
/// them beside every other part's, in one transaction.
///
/// `SiteSchema` (SQLite) and `PostgresSiteSchema` (PostgreSQL) are part schemas; a part
/// that runs on both declares one of each under the same ``app`` name. A catalog of the
/// `scenery` tool hands its parts' schemas to the database it opens
/// (`ModuleCatalog.addingTables(_:)`):
///
/// ```swift
/// static let guestbook = ModuleCatalog(modules: [GuestbookModule.descriptor]) { registry, services in
///     let site = try services.siteStore()        // the app's database, with the tables below
///     registry.register(GuestbookModule.self) { parameters, context in
///         try GuestbookModule(parameters: parameters, context: context, book: Guestbook(site))
///     }
/// }
/// .addingTables(
///     SiteSchema(app: "guestbook", steps: ["CREATE TABLE guestbook_messages (…)"]),
///     PostgresSiteSchema(app: "guestbook", steps: ["CREATE TABLE guestbook_messages (…)"]))
/// ```
public protocol PartSchema: Sendable {
    /// The name the part's tables are versioned under (as its entities' `RecordedEntity.app`):
    /// unique among the parts on one database.
    var app: String { get }
}

extension Sequence where Element == String {
    /// The first name that occurs twice, if any: two parts that declare the tables of one
    /// app would each migrate them.
    package func firstRepeated() -> String? {
        var seen = Set<String>()
        return first { !seen.insert($0).inserted }
    }
}
