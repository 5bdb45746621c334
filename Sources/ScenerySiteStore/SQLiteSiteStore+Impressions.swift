import Foundation
import Scenery
import SceneryExperiments

/// The `impressions` table: what the pages of every app on the database record for
/// experiments (assignments, impressions, exposures), and the counts a report reads.
extension SQLiteSiteStore {
    /// Appends experiments' records, in one transaction.
    ///
    /// - Throws: `DataError` of kind `storage` when the database cannot be written (read-only).
    public func record(_ records: [ImpressionRecord]) throws(DataError) {
        guard !records.isEmpty else { return }
        try withConnection { connection throws(DataError) in
            try connection.transaction { () throws(DataError) in
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
    public func experimentTallies() throws(DataError) -> [ExperimentTally] {
        let rows = try withConnection { connection throws(DataError) in
            try connection.query(
                """
                SELECT experiment, arm, kind, COUNT(DISTINCT unit) FROM impressions
                WHERE experiment IS NOT NULL AND arm IS NOT NULL AND unit IS NOT NULL AND kind IN ('assignment', 'exposure')
                GROUP BY experiment, arm, kind
                """)
        }
        return ExperimentTally.tallies(
            ofCounts: rows.compactMap { row in
                guard let experiment = row[0].text, let arm = row[1].text, let kind = row[2].text else { return nil }
                return (experiment, arm, kind, Int(row[3].integer))
            })
    }

    /// How many records the table holds.
    public func impressionCount() throws(DataError) -> Int {
        try withConnection { connection throws(DataError) in
            Int(try connection.query("SELECT COUNT(*) FROM impressions").first?.first?.integer ?? 0)
        }
    }
}

extension SQLiteSiteStore: SiteStore {
    /// The database file's path (``path``), for messages.
    public var location: String { path }

    /// Nothing to start: the store watches for other processes' writes from its first
    /// subscriber on, from the `changes` table, which keeps what they wrote meanwhile.
    public func listen() {}
}
