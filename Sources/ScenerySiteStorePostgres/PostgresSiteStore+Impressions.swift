import Foundation
import Logging
import PostgresNIO
import Scenery

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
        var tallies: [String: ExperimentTally] = [:]
        for (experiment, arm, kind, units) in rows {
            tallies[experiment, default: ExperimentTally(experiment: experiment)].add(Int(units), kind: kind, arm: arm)
        }
        return tallies.values.sorted { $0.experiment < $1.experiment }
    }

    /// The site store's own tables besides the change channel: the action ledger and
    /// experiments' records (made if missing, after the apps' tables, in the migration's
    /// transaction; an app that made an `impressions` table of this shape keeps it).
    static let siteTables = [
        "CREATE TABLE IF NOT EXISTS applied_actions (key TEXT PRIMARY KEY, at DOUBLE PRECISION NOT NULL)",
        "CREATE INDEX IF NOT EXISTS applied_actions_by_time ON applied_actions (at)",
        """
        CREATE TABLE IF NOT EXISTS impressions (
            id BIGSERIAL PRIMARY KEY, kind TEXT NOT NULL, time DOUBLE PRECISION NOT NULL, scene TEXT NOT NULL, variant TEXT NOT NULL,
            unit TEXT, module TEXT, node TEXT, experiment TEXT, arm TEXT
        )
        """,
        "CREATE INDEX IF NOT EXISTS impressions_by_experiment ON impressions (experiment, arm, kind, unit)",
    ]
}
