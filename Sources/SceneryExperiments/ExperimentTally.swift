import Scenery

/// How many distinct units each arm of one experiment was assigned, and how many were
/// exposed: what a report shows, from a store's table or a JSON lines log.
///
/// ```swift
/// let tallies = ExperimentTally.tallies(of: records)
/// for tally in tallies {
///     let check = tally.sampleRatioCheck(weights: ["carousel": 50, "compact": 50])
///     print(tally.experiment, tally.assigned, check?.isMismatched ?? false)
/// }
/// ```
public struct ExperimentTally: Sendable, Hashable {
    /// The experiment's name.
    public var experiment: String
    /// Distinct units assigned, by arm.
    public var assigned: [String: Int] = [:]
    /// Distinct units exposed, by arm.
    public var exposed: [String: Int] = [:]

    /// Creates an empty tally.
    public init(experiment: String) {
        self.experiment = experiment
    }

    /// Adds a count of units for an arm: `kind` is `"assignment"` or `"exposure"`.
    public mutating func add(_ units: Int, kind: String, arm: String) {
        switch kind {
        case ImpressionRecord.Kind.assignment.rawValue: assigned[arm, default: 0] += units
        case ImpressionRecord.Kind.exposure.rawValue: exposed[arm, default: 0] += units
        default: break
        }
    }

    /// Tallies records: each unit counted once per arm and kind, however many pages it opened.
    public static func tallies(of records: some Sequence<ImpressionRecord>) -> [ExperimentTally] {
        var seen: Set<UnitKey> = []
        var tallies: [String: ExperimentTally] = [:]
        for record in records where record.kind != .impression {
            guard let experiment = record.experiment, let arm = record.arm, let unit = record.unit else { continue }
            guard seen.insert(UnitKey(experiment: experiment, arm: arm, kind: record.kind, unit: unit)).inserted else { continue }
            tallies[experiment, default: ExperimentTally(experiment: experiment)].add(1, kind: record.kind.rawValue, arm: arm)
        }
        return tallies.values.sorted { $0.experiment < $1.experiment }
    }

    /// Tallies a store's counts of distinct units by experiment, arm and kind (`"assignment"`
    /// or `"exposure"`), as a query grouped by those three answers them.
    public static func tallies(
        ofCounts counts: some Sequence<(experiment: String, arm: String, kind: String, units: Int)>
    ) -> [ExperimentTally] {
        var tallies: [String: ExperimentTally] = [:]
        for count in counts {
            tallies[count.experiment, default: ExperimentTally(experiment: count.experiment)].add(count.units, kind: count.kind, arm: count.arm)
        }
        return tallies.values.sorted { $0.experiment < $1.experiment }
    }

    /// One unit's record of one kind in one arm, counted once.
    private struct UnitKey: Hashable {
        var experiment: String
        var arm: String
        var kind: ImpressionRecord.Kind
        var unit: String
    }

    /// The sample-ratio check of the assigned counts against the arms' weights (arms with
    /// no units count zero), or `nil` with fewer than two weighted arms.
    public func sampleRatioCheck(weights: [(arm: String, weight: Double)]) -> SampleRatioCheck? {
        guard weights.count >= 2 else { return nil }
        return SampleRatioCheck(counts: weights.map { assigned[$0.arm, default: 0] }, weights: weights.map(\.weight))
    }
}
