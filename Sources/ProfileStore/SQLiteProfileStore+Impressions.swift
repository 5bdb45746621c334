import Foundation
import ProfileDomain
import Scenery
import ScenerySiteStore

/// The `impressions` table: what `scenery serve`'s pages record for experiments, and the
/// counts `scenery experiments report` reads.
extension SQLiteProfileStore {
    /// Appends records, in one transaction.
    ///
    /// - Throws: `ProfileError.storage` when the database cannot be written (read-only).
    public func insert(_ records: [ImpressionRecord]) throws(ProfileError) {
        guard !records.isEmpty else { return }
        try withConnection { connection throws(ProfileError) in
            try connection.transaction { () throws(ProfileError) in
                for record in records {
                    try connection.run(
                        "INSERT INTO impressions (kind, time, scene, variant, unit, module, node, experiment, arm) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)",
                        [
                            .text(record.kind.rawValue), .real(record.time.timeIntervalSince1970), .text(record.scene), .text(record.variant),
                            SQLValue(record.unit), SQLValue(record.module?.rawValue), SQLValue(record.node?.rawValue), SQLValue(record.experiment),
                            SQLValue(record.arm),
                        ])
                }
            }
        }
    }

    /// How many distinct units each arm of each experiment was assigned and exposed.
    public func experimentTallies() throws(ProfileError) -> [ExperimentTally] {
        let rows = try withConnection { connection throws(ProfileError) in
            try connection.query(
                """
                SELECT experiment, arm, kind, COUNT(DISTINCT unit) FROM impressions
                WHERE experiment IS NOT NULL AND arm IS NOT NULL AND unit IS NOT NULL AND kind IN ('assignment', 'exposure')
                GROUP BY experiment, arm, kind
                """)
        }
        var tallies: [String: ExperimentTally] = [:]
        for row in rows {
            guard let experiment = row[0].text, let arm = row[1].text, let kind = row[2].text else { continue }
            let units = Int(row[3].integer)
            tallies[experiment, default: ExperimentTally(experiment: experiment)].add(units, kind: kind, arm: arm)
        }
        return tallies.values.sorted { $0.experiment < $1.experiment }
    }

    /// How many records the table holds.
    public func impressionCount() throws(ProfileError) -> Int {
        try withConnection { connection throws(ProfileError) in
            Int(try connection.query("SELECT COUNT(*) FROM impressions").first?.first?.integer ?? 0)
        }
    }
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
