import Scenery

/// An impression sink that keeps every record, for tests.
///
/// ```swift
/// let journal = ImpressionJournal()
/// registry.impressionSink = journal
/// let scene = try await registry.assemble("user-profile", for: context, host: RecordingHost())
/// let start = ContinuousClock.now
/// try await scene.reportVisibility(of: "friends", fraction: 1, at: start)
/// await scene.recordImpressions(dueAt: start + .seconds(1))
/// #expect(journal.records(.exposure).map(\.arm) == ["compact"])
/// ```
public final class ImpressionJournal: ImpressionSink {
    private let kept = Locked<[ImpressionRecord]>([])

    /// Creates an empty journal.
    public init() {}

    public func record(_ record: ImpressionRecord) {
        kept.withLock { $0.append(record) }
    }

    /// Every record so far, oldest first.
    public var records: [ImpressionRecord] { kept.withLock { $0 } }

    /// The records of one kind, oldest first.
    public func records(_ kind: ImpressionRecord.Kind) -> [ImpressionRecord] {
        records.filter { $0.kind == kind }
    }
}
