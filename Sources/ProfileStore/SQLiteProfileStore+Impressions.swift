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

/// An impression sink that writes to a store's `impressions` table, off the scene's
/// executor: records are buffered and written in batches by one task at a time.
///
/// A write that fails (the database is away, locked, read-only) is tried again with back-off
/// (``retryDelays``) while new records wait in a buffer of at most `capacity` records; past
/// it the oldest are dropped and counted. `onFailure` hears the first failure of each
/// outage and `onNotice` says, in words for a log, when records are dropped and when writing
/// works again, so one blip never silently stops an experiment's counts for the life of the
/// process.
///
/// ```swift
/// registry.impressionSink = DatabaseImpressionSink(store: database) { error in
///     logger.warning("Impressions are not recorded: \(error.message)")
/// }
/// ```
public final class DatabaseImpressionSink: ImpressionSink {
    private let write: @Sendable ([ImpressionRecord]) async throws(ProfileError) -> Void
    private let state = Locked<State>(State())
    private let capacity: Int
    private let retryDelays: [Duration]
    private let onFailure: @Sendable (ProfileError) -> Void
    private let onNotice: @Sendable (String) -> Void

    private struct State {
        var buffer: [ImpressionRecord] = []
        var isWriting = false
        var isFailing = false
        /// Records dropped in this outage (the buffer was full).
        var dropped = 0
    }

    /// How long the sink waits before each retry of a failed write (the last repeats).
    public static let retryDelays: [Duration] = [.milliseconds(100), .milliseconds(500), .seconds(2), .seconds(5)]

    /// Writes to `store`; `onFailure` hears the first failed write of each outage.
    public convenience init(
        store: any ProfileDatabase, capacity: Int = 10_000, onNotice: @escaping @Sendable (String) -> Void = { _ in },
        onFailure: @escaping @Sendable (ProfileError) -> Void = { _ in }
    ) {
        self.init(capacity: capacity, onNotice: onNotice, onFailure: onFailure) { records throws(ProfileError) in try await store.insert(records) }
    }

    /// Writes with `write` (a batch of records in one transaction), retrying after
    /// `retryDelays`, keeping at most `capacity` records waiting.
    public init(
        capacity: Int = 10_000, retryDelays: [Duration] = DatabaseImpressionSink.retryDelays, onNotice: @escaping @Sendable (String) -> Void = { _ in },
        onFailure: @escaping @Sendable (ProfileError) -> Void = { _ in },
        writing write: @escaping @Sendable ([ImpressionRecord]) async throws(ProfileError) -> Void
    ) {
        self.write = write
        self.capacity = max(1, capacity)
        self.retryDelays = retryDelays.isEmpty ? [.seconds(1)] : retryDelays
        self.onFailure = onFailure
        self.onNotice = onNotice
    }

    public func record(_ record: ImpressionRecord) {
        let (startsWriting, droppedFirst) = state.withLock { state -> (Bool, Bool) in
            state.buffer.append(record)
            var droppedFirst = false
            if state.buffer.count > capacity {
                state.buffer.removeFirst(state.buffer.count - capacity)
                droppedFirst = state.dropped == 0
                state.dropped += 1
            }
            guard !state.isWriting else { return (false, droppedFirst) }
            state.isWriting = true
            return (true, droppedFirst)
        }
        if droppedFirst {
            onNotice("Impressions are waiting for the database and the buffer of \(capacity) is full: the oldest are being dropped.")
        }
        if startsWriting { Task.detached { await self.drain() } }
    }

    /// Records waiting to be written (for tests and diagnostics).
    public var waiting: Int { state.withLock { $0.buffer.count } }

    private func drain() async {
        var attempt = 0
        while true {
            let batch = state.withLock { state -> [ImpressionRecord] in
                let batch = state.buffer
                state.buffer = []
                if batch.isEmpty { state.isWriting = false }
                return batch
            }
            guard !batch.isEmpty else { return }
            do {
                try await write(batch)
                attempt = 0
                let recovered = state.withLock { state -> (Bool, Int) in
                    defer {
                        state.isFailing = false
                        state.dropped = 0
                    }
                    return (state.isFailing, state.dropped)
                }
                if recovered.0 {
                    onNotice("Impressions are written again\(recovered.1 > 0 ? "; \(recovered.1) were dropped while the database was away" : ", none lost").")
                }
            } catch {
                let first = state.withLock { state -> Bool in
                    // Back in front of what came meanwhile, within the buffer's bound.
                    state.buffer = batch + state.buffer
                    if state.buffer.count > capacity {
                        state.dropped += state.buffer.count - capacity
                        state.buffer.removeFirst(state.buffer.count - capacity)
                    }
                    defer { state.isFailing = true }
                    return !state.isFailing
                }
                if first { onFailure(error) }
                try? await Task.sleep(for: retryDelays[min(attempt, retryDelays.count - 1)])
                attempt += 1
            }
        }
    }
}

/// The sink's name before it wrote to any ``ProfileDatabase``.
@available(*, deprecated, renamed: "DatabaseImpressionSink")
public typealias SQLiteImpressionSink = DatabaseImpressionSink
