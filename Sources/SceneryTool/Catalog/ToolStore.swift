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
/// impressions here, `experiments report` reads ``experimentTallies()``, and `data
/// export|import|reset` use the data set requirements.
///
/// ```swift
/// struct BoardToolStore: ToolStore {
///     let board: BoardStore
///     var location: String { board.path }
///
///     func signInAccounts() async throws(DataError) -> [ToolAccount] {
///         try await board.members().map { ToolAccount(id: $0.id, name: $0.name) }
///     }
///     func record(_ records: [ImpressionRecord]) async throws(DataError) {
///         try await board.insert(records)
///     }
///     func experimentTallies() async throws(DataError) -> [ExperimentTally] {
///         try await board.experimentTallies()
///     }
///     func hasApplied(_ key: ActionKey) async throws -> Bool { try await board.hasApplied(key) }
///     func claim(_ key: ActionKey) async throws -> Bool { try await board.claim(key) }
/// }
/// ```
///
/// Errors are `DataError` values, whose message the tool prints as it is: say what went
/// wrong and what to do.
public protocol ToolStore: ActionLedger {
    /// Where the data lives, for messages: a file path, or a URL without its password.
    var location: String { get }

    /// The people `serve`'s sign-in page offers (at most a page's worth, in a stable order).
    func signInAccounts() async throws(DataError) -> [ToolAccount]

    /// Whether `id` names someone who may view as a signed-in viewer (`--viewer`).
    ///
    /// The default looks `id` up in ``signInAccounts()``.
    func hasAccount(_ id: String) async throws(DataError) -> Bool

    /// Starts hearing other processes' writes now; `serve` calls it before taking pages.
    ///
    /// The default does nothing (a store that only this process writes).
    func listen() async throws(DataError)

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
    /// is), and reports nothing otherwise; a store that keeps its feed apart forwards to it.
    func reportFanOuts(to observer: @escaping @Sendable (FanOut) -> Void)

    /// Appends experiments' records (assignments, impressions, exposures), in one transaction.
    func record(_ records: [ImpressionRecord]) async throws(DataError)

    /// How many distinct units each arm of each experiment was assigned and exposed.
    func experimentTallies() async throws(DataError) -> [ExperimentTally]

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

    public func listen() async throws(DataError) {}

    public func followAccounts(_ accountsChanged: @escaping @Sendable () async -> Void) async {}

    public func reportFanOuts(to observer: @escaping @Sendable (FanOut) -> Void) {
        (self as? any ChangeFeed)?.observeFanOuts(observer)
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
}
