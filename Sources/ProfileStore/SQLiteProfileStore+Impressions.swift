import Foundation
import ProfileDomain
import Scenery
import SceneryExperiments
import ScenerySiteStore

/// The `impressions` table, the site store's: what `scenery serve`'s pages record for
/// experiments, and the counts `scenery experiments report` reads.
extension SQLiteProfileStore {
    /// Appends records, in one transaction.
    ///
    /// - Throws: `ProfileError.storage` when the database cannot be written (read-only).
    public func insert(_ records: [ImpressionRecord]) throws(ProfileError) { try site.record(records) }

    /// How many distinct units each arm of each experiment was assigned and exposed.
    public func experimentTallies() throws(ProfileError) -> [ExperimentTally] { try site.experimentTallies() }

    /// How many records the table holds.
    public func impressionCount() throws(ProfileError) -> Int { try site.impressionCount() }
}

extension DatabaseImpressionSink {
    /// Writes to `store`; `onFailure` hears the first failed write of each outage.
    public convenience init(
        store: any ProfileDatabase, capacity: Int = 10_000, onNotice: @escaping @Sendable (String) -> Void = { _ in },
        onFailure: @escaping @Sendable (ProfileError) -> Void = { _ in }
    ) {
        self.init(capacity: capacity, onNotice: onNotice, onFailure: onFailure) { records throws(ProfileError) in try await store.insert(records) }
    }
}

/// The sink's name before it wrote to any ``ProfileDatabase``.
@available(*, deprecated, renamed: "DatabaseImpressionSink")
public typealias SQLiteImpressionSink = DatabaseImpressionSink
