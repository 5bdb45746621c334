import Scenery
import SceneryExperiments
import SceneryFaults

/// What the tool hands a ``ModuleCatalog`` when a command runs scenes: the store it opened,
/// and the faults asked for on the command line.
///
/// A catalog's registrations take their services from the store (``store(as:)``), or make
/// their own, and wrap them with ``faults`` so that `--fail` and `--latency` reach them:
///
/// ```swift
/// ModuleCatalog(modules: [TaskModule.descriptor], databases: [.boardFiles]) { registry, services in
///     let board = try services.store(as: BoardToolStore.self).board
///     registry.register(TaskModule.self) { parameters, context in
///         try TaskModule(parameters: parameters, context: context, board: FaultyBoard(board, services.faults))
///     }
/// }
/// ```
public struct ToolServices: Sendable {
    /// The store the tool opened from `--database`, of one of the catalog's database kinds
    /// (a ``MemoryToolStore`` when the catalog names none).
    public var store: any ToolStore
    /// The faults of `--fail` and `--latency`, to wrap a catalog's services with.
    public var faults: FaultInjector

    public init(store: any ToolStore, faults: FaultInjector = FaultInjector()) {
        self.store = store
        self.faults = faults
    }

    /// The database in use (`--database`): a file's path or a URL without its password.
    public var databasePath: String { store.location }

    /// The store as the type a catalog's modules need.
    ///
    /// - Throws: `SceneryError` naming both types when the tool opened another kind of store
    ///   (a catalog combined with another app's database kinds).
    public func store<Store: ToolStore>(as type: Store.Type) throws -> Store {
        guard let store = store as? Store else {
            throw SceneryError(
                .moduleCreationFailed,
                "The catalog's modules need a \(Store.self), but the tool opened \(Swift.type(of: store)) at \(store.location.quoted); put the catalog part that names this app's databases first in the tool's catalog (catalog: .mine + .others)."
            )
        }
        return store
    }

    /// The site store under the tool's store (its `SiteStoreBacked` chain followed to the
    /// end): the app's database, where a part keeps the tables it declares with
    /// ``ModuleCatalog/addingTables(_:)``.
    ///
    /// ```swift
    /// let book: any GuestbookStore = switch try services.siteStore() {
    /// case let site as SQLiteSiteStore: SQLiteGuestbook(site)
    /// case let site as PostgresSiteStore: PostgresGuestbook(site)
    /// case let other: throw GuestbookError.unsupported(other.location)
    /// }
    /// ```
    ///
    /// - Throws: `SceneryError` when the tool's store is built on no site store (a tool
    ///   whose catalog names no database keeps its data in memory).
    public func siteStore() throws -> any SiteStore {
        guard var site = (store as? any SiteStoreBacked)?.backingSiteStore else {
            throw SceneryError(
                .moduleCreationFailed,
                "A part needs the app's database, but the tool's store (\(Swift.type(of: store)) at \(store.location.quoted)) is built on no site store; name a database kind built on SQLiteSiteStore or PostgresSiteStore in the catalog (ModuleCatalog(databases:))."
            )
        }
        while let backed = site as? any SiteStoreBacked { site = backed.backingSiteStore }
        return site
    }
}
