import Foundation
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

    /// Writes the data of `parts` (those of this store's kind) as one JSON document, read
    /// in one snapshot: `{"format": "scenery.site-data", "version": 1, "parts": {NAME: …}}`,
    /// each part's section in its own format, in chunks handed to `write` in order.
    ///
    /// The default throws: the store keeps no parts' data.
    func exportData(of parts: [any PartData], to write: (String) throws -> Void) async throws

    /// Replaces the data of every part in `parts` with its section in `sections` (by the
    /// part's name; a part without one is emptied), in one transaction, and tells every
    /// app's pages to fetch again. Returns what each part now holds, in words, in order.
    ///
    /// - Throws: `DataError` of kind `invalidData` listing every problem of every section,
    ///   each path under `parts.NAME`; nothing is changed in any part then, nor when one
    ///   part's rows fail to write. The default throws: the store keeps no parts' data.
    func replaceData(of parts: [any PartData], with sections: [String: Data]) async throws(DataError) -> [String]
}

extension SiteStore {
    public func exportData(of parts: [any PartData], to write: (String) throws -> Void) async throws {
        throw DataError(.storage, "The data of \(location.quoted) cannot be exported with its parts: this store keeps no parts' data.")
    }

    public func replaceData(of parts: [any PartData], with sections: [String: Data]) async throws(DataError) -> [String] {
        throw DataError(.storage, "Nothing can be imported into the parts of \(location.quoted): this store keeps no parts' data.")
    }
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

    public func exportData(of parts: [any PartData], to write: (String) throws -> Void) async throws {
        try await backingSiteStore.exportData(of: parts, to: write)
    }

    public func replaceData(of parts: [any PartData], with sections: [String: Data]) async throws(DataError) -> [String] {
        try await backingSiteStore.replaceData(of: parts, with: sections)
    }
}
