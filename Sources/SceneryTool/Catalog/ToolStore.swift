import Foundation
import Scenery
import SceneryExperiments
import SceneryLive

/// What the tool does with an app's database beside what its modules do: the people who may
/// sign in, the actions it wrote, experiments' records, and the whole data set.
///
/// An app's catalog names how its database opens (``ToolDatabase``); the store it opens
/// conforms to this protocol, and the catalog's registrations take their own services from
/// it with ``ToolServices/store(as:)``. `run`, `interact` and `serve` check `--viewer`
/// against ``hasAccount(_:)``, `serve` lists ``signInAccounts()`` (again after each
/// ``followAccounts(_:)`` call) and records actions and
/// impressions here, `experiments report` reads `experimentTallies()`, and `data
/// export|import|reset` use the data set requirements.
///
/// A store of an app built on a site store names the store it wraps
/// (`SiteStoreBacked`): its location, listening, ledger and experiments' records are then
/// that store's, and so are the fan-outs `serve --metrics` records when it is a change feed.
///
/// ```swift
/// struct BoardToolStore: ToolStore, SiteStoreBacked {
///     let board: any BoardDatabase          // a SiteStore: SQLite or PostgreSQL
///     var backingSiteStore: any SiteStore { board }
///
///     func signInAccounts() async throws(DataError) -> [ToolAccount] {
///         try await board.members().map { ToolAccount(id: $0.id, name: $0.name) }
///     }
/// }
/// ```
///
/// Errors are `DataError` values, whose message the tool prints as it is: say what went
/// wrong and what to do.
public protocol ToolStore: SiteStore {
    /// The people `serve`'s sign-in page offers (at most a page's worth, in a stable order).
    func signInAccounts() async throws(DataError) -> [ToolAccount]

    /// Whether `id` names someone who may view as a signed-in viewer (`--viewer`).
    ///
    /// The default looks `id` up in ``signInAccounts()``.
    func hasAccount(_ id: String) async throws(DataError) -> Bool

    /// Calls `accountsChanged` each time ``signInAccounts()`` may answer otherwise (a `data
    /// import` by another process, a new account), until the calling task is cancelled;
    /// `serve` reads the accounts again then, so a removed person can no longer sign in.
    ///
    /// The default returns at once: the accounts are read once, when `serve` starts.
    func followAccounts(_ accountsChanged: @escaping @Sendable () async -> Void) async

    /// Reports each fan-out of the store's changes to open pages to `observer`
    /// (`ChangeFeed.observeFanOuts(_:)`); `serve --metrics` records them.
    ///
    /// The default asks the store itself when it is a `ChangeFeed` (an app's store usually
    /// is), else the site store it wraps (`SiteStoreBacked`) when that is one, and reports
    /// nothing otherwise; a store that keeps its feed apart forwards to it.
    func reportFanOuts(to observer: @escaping @Sendable (FanOut) -> Void)

    /// What `data export` writes: the whole data set as JSON, in chunks handed to `write`
    /// in order.
    ///
    /// The default throws: the app's data cannot be exported.
    func exportJSON(to write: (String) throws -> Void) async throws

    /// Replaces the whole data set with a JSON document (what ``exportJSON(to:)`` wrote), in
    /// one transaction, and returns what it holds in words ("3 users, 2 blogs").
    ///
    /// - Throws: `DataError` of kind `invalidData` listing every problem of the document,
    ///   each with its path (the tool points at its line and column); nothing is changed then.
    func importJSON(_ document: Data) async throws(DataError) -> String

    /// Replaces the whole data set with the app's demo data, and returns what it holds in
    /// words. The default throws: the app has no demo data.
    func resetToDemoData() async throws(DataError) -> String

    /// The app's own data set as a part of the database's data (a `SiteDataSet` or a
    /// `PostgresDataSet` named as the app's tables), when the catalog's parts keep data
    /// too (`ModuleCatalog.addingData(_:)`): `data export`, `import` and `reset` then
    /// cover the app's data and every part's in one file and one transaction.
    ///
    /// The default is `nil`: the app's data is exported and imported on its own
    /// (``exportJSON(to:)``), and a tool whose parts keep data says it cannot.
    var appDataSet: (any PartData)? { get }
}

/// Someone who may sign in, as `serve`'s sign-in page lists them.
public struct ToolAccount: Sendable, Hashable {
    /// The id a scene sees as its viewer.
    public var id: String
    /// The name the sign-in page shows.
    public var name: String

    public init(id: String, name: String) {
        self.id = id
        self.name = name
    }
}

extension ToolStore {
    public func hasAccount(_ id: String) async throws(DataError) -> Bool {
        try await signInAccounts().contains { $0.id == id }
    }

    /// Does nothing: a store that only this process writes has nothing to hear. `serve`
    /// calls `listen()` before taking pages.
    public func listen() async throws(DataError) {}

    public func followAccounts(_ accountsChanged: @escaping @Sendable () async -> Void) async {}

    public func reportFanOuts(to observer: @escaping @Sendable (FanOut) -> Void) {
        let wrapped = (self as? any SiteStoreBacked)?.backingSiteStore
        ((self as? any ChangeFeed) ?? (wrapped as? any ChangeFeed))?.observeFanOuts(observer)
    }

    public func exportJSON(to write: (String) throws -> Void) async throws {
        throw DataError(.storage, "The data of \(location.quoted) cannot be exported: this app's store has no data set format.")
    }

    public func importJSON(_ document: Data) async throws(DataError) -> String {
        throw DataError(.storage, "Nothing can be imported into \(location.quoted): this app's store has no data set format.")
    }

    public func resetToDemoData() async throws(DataError) -> String {
        throw DataError(.storage, "\(location.quoted) cannot be reset: this app has no demo data.")
    }

    public var appDataSet: (any PartData)? { nil }
}

extension ToolStore where Self: SiteStoreBacked {
    /// The site store's: it hears other processes' writes.
    public func listen() async throws(DataError) { try await backingSiteStore.listen() }
}
