import Foundation
import ProfileDomain
import Scenery

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

/// An impression sink that writes to a store's `impressions` table, off the scene's
/// executor: records are buffered and written in batches by one task at a time.
///
/// ```swift
/// registry.impressionSink = DatabaseImpressionSink(store: database) { error in
///     logger.warning("Impressions are not recorded: \(error.message)")
/// }
/// ```
public final class DatabaseImpressionSink: ImpressionSink {
    private let store: any ProfileDatabase
    private let state = Locked<State>(State())
    private let onFailure: @Sendable (ProfileError) -> Void

    private struct State {
        var buffer: [ImpressionRecord] = []
        var isWriting = false
        var hasFailed = false
    }

    /// Writes to `store`; `onFailure` hears the first failed write (a read-only database),
    /// after which records are dropped rather than pile up.
    public init(store: any ProfileDatabase, onFailure: @escaping @Sendable (ProfileError) -> Void = { _ in }) {
        self.store = store
        self.onFailure = onFailure
    }

    public func record(_ record: ImpressionRecord) {
        let startsWriting = state.withLock { state -> Bool in
            guard !state.hasFailed else { return false }
            state.buffer.append(record)
            guard !state.isWriting else { return false }
            state.isWriting = true
            return true
        }
        if startsWriting { Task.detached { await self.drain() } }
    }

    private func drain() async {
        while true {
            let batch = state.withLock { state -> [ImpressionRecord] in
                let batch = state.buffer
                state.buffer = []
                if batch.isEmpty { state.isWriting = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                try await store.insert(batch)
            } catch {
                let first = state.withLock { state -> Bool in
                    defer { state.hasFailed = true }
                    state.buffer = []
                    state.isWriting = false
                    return !state.hasFailed
                }
                if first { onFailure(error) }
                return
            }
        }
    }
}

/// The sink's name before it wrote to any ``ProfileDatabase``.
@available(*, deprecated, renamed: "DatabaseImpressionSink")
public typealias SQLiteImpressionSink = DatabaseImpressionSink
