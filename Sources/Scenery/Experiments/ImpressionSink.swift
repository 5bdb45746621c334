import Foundation

/// Where a scene's assignments, impressions and exposures go: a file, a table, a test's
/// array. Set one on the registry (``SceneRegistry/impressionSink``); every scene it
/// assembles records to it.
///
/// `record(_:)` is called on the scene's executor and must not block: buffer, or hand the
/// write to your own queue.
///
/// ```swift
/// registry.impressionSink = MyImpressionTable(database)  // any ImpressionSink
/// ```
///
/// The `SceneryExperiments` library has two ready to use: `JSONLinesImpressionSink` (a file)
/// and `DatabaseImpressionSink` (batched writes to any store).
public protocol ImpressionSink: Sendable {
    /// Takes one record.
    func record(_ record: ImpressionRecord)
}
