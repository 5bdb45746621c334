import Foundation
import Logging
import PostgresNIO
import Scenery
import SceneryExperiments

/// The `impressions` table: what the pages of every app on the database record for
/// experiments (assignments, impressions, exposures), from every server, and the counts a
/// report reads.
extension PostgresSiteStore {
    /// Appends experiments' records, in one transaction.
    public func record(_ records: [ImpressionRecord]) async throws(DataError) {
        guard !records.isEmpty else { return }
        try await writing("record impressions") { connection, logger in
            for record in records {
                try await connection.query(
                    """
                    INSERT INTO impressions (kind, time, scene, variant, unit, module, node, experiment, arm)
                    VALUES (\(record.kind.rawValue), \(record.time.timeIntervalSince1970), \(record.scene), \(record.variant), \(record.unit),
                            \(record.module?.rawValue), \(record.node?.rawValue), \(record.experiment), \(record.arm))
                    """, logger: logger)
            }
        }
    }

    /// How many distinct units each arm of each experiment was assigned and exposed.
    public func experimentTallies() async throws(DataError) -> [ExperimentTally] {
        let rows = try await reading("read the experiments' records") { connection, logger in
            try await connection.query(
                """
                SELECT experiment, arm, kind, COUNT(DISTINCT unit) FROM impressions
                WHERE experiment IS NOT NULL AND arm IS NOT NULL AND unit IS NOT NULL AND kind IN ('assignment', 'exposure')
                GROUP BY experiment, arm, kind
                """, logger: logger
            ).collect().map { try $0.decode((String, String, String, Int64).self) }
        }
        return ExperimentTally.tallies(ofCounts: rows.map { ($0.0, $0.1, $0.2, Int($0.3)) })
    }
}

extension PostgresSiteStore: SiteStore {}
