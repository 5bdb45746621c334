import Foundation
import Scenery

/// An impression sink that writes to a database (any app's store), off the scene's
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
/// registry.impressionSink = DatabaseImpressionSink(onFailure: { error in
///     logger.warning("Impressions are not recorded: \(error.message)")
/// }) { records in
///     try await store.insert(records)
/// }
/// ```
public final class DatabaseImpressionSink: ImpressionSink {
    private let write: @Sendable ([ImpressionRecord]) async throws(DataError) -> Void
    private let state = Locked<State>(State())
    private let capacity: Int
    private let retryDelays: [Duration]
    private let onFailure: @Sendable (DataError) -> Void
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

    /// Writes with `write` (a batch of records in one transaction), retrying after
    /// `retryDelays`, keeping at most `capacity` records waiting.
    public init(
        capacity: Int = 10_000, retryDelays: [Duration] = DatabaseImpressionSink.retryDelays, onNotice: @escaping @Sendable (String) -> Void = { _ in },
        onFailure: @escaping @Sendable (DataError) -> Void = { _ in },
        writing write: @escaping @Sendable ([ImpressionRecord]) async throws(DataError) -> Void
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
