import Foundation
import ProfileDemoDomain
import Scenery
import SceneryExperiments
import ScenerySiteStore

/// The `impressions` table, the site store's: what `scenery serve`'s pages record for
/// experiments, and the counts `scenery experiments report` reads.
extension SQLiteProfileStore {
    /// How many records the table holds.
    public func impressionCount() throws(ProfileError) -> Int { try site.impressionCount() }
}

extension DatabaseImpressionSink {
    /// Writes to `store`; `onFailure` hears the first failed write of each outage.
    public convenience init(
        store: any ProfileDatabase, capacity: Int = 10_000, onNotice: @escaping @Sendable (String) -> Void = { _ in },
        onFailure: @escaping @Sendable (ProfileError) -> Void = { _ in }
    ) {
        self.init(capacity: capacity, onNotice: onNotice, onFailure: onFailure) { records throws(ProfileError) in try await store.record(records) }
    }
}

/// The sink's name before it wrote to any ``ProfileDatabase``.
@available(*, deprecated, renamed: "DatabaseImpressionSink")
public typealias SQLiteImpressionSink = DatabaseImpressionSink
