/// A scene's bookkeeping of what was seen: for each node being looked at, since when; which
/// were already counted; which experiments already exposed. Once per page session: a node
/// is counted at most once, however often it is reported.
struct ImpressionTracker: Sendable {
    /// What a report is about.
    enum Target: Hashable, Sendable {
        case module(ModuleID)
        case row(ModuleID, NodeID)

        var module: ModuleID {
            switch self {
            case .module(let id), .row(let id, _): id
            }
        }
    }

    /// Since when each target not yet counted has been visible enough.
    private(set) var visibleSince: [Target: ContinuousClock.Instant] = [:]
    /// Targets already counted.
    private(set) var counted: Set<Target> = []
    /// Experiments (by index in the scene's assignments) already exposed.
    private(set) var exposed: Set<Int> = []

    /// Takes a report that `target` is `fraction` visible at `instant`; returns the targets
    /// that are now seen (at most `target`).
    mutating func report(_ target: Target, fraction: Double, at instant: ContinuousClock.Instant, rule: ImpressionRule) -> Target? {
        guard !counted.contains(target) else { return nil }
        let isVisible = fraction >= rule.minimumVisibleFraction && fraction > 0
        if let since = visibleSince[target] {
            if instant - since >= rule.minimumDuration { return count(target) }
            if !isVisible { visibleSince[target] = nil }
            return nil
        }
        guard isVisible else { return nil }
        if rule.minimumDuration == .zero { return count(target) }
        visibleSince[target] = instant
        return nil
    }

    /// The targets visible long enough by `instant`.
    mutating func due(at instant: ContinuousClock.Instant, rule: ImpressionRule) -> [Target] {
        let due = visibleSince.filter { instant - $0.value >= rule.minimumDuration }.map(\.key)
        var seen: [Target] = []
        for target in due.sorted(by: { "\($0)" < "\($1)" }) {
            if let counted = count(target) { seen.append(counted) }
        }
        return seen
    }

    /// When the next target becomes due, if any is being looked at.
    func nextDeadline(rule: ImpressionRule) -> ContinuousClock.Instant? {
        visibleSince.values.min().map { $0 + rule.minimumDuration }
    }

    /// Forgets the timing of targets no longer on the page (a tab switched away): they
    /// start again when they come back.
    mutating func keepTiming(only isOnPage: (Target) -> Bool) {
        visibleSince = visibleSince.filter { isOnPage($0.key) }
    }

    mutating func count(_ target: Target) -> Target? {
        visibleSince[target] = nil
        return counted.insert(target).inserted ? target : nil
    }

    /// Marks an experiment exposed; `false` when it already was.
    mutating func expose(_ index: Int) -> Bool {
        exposed.insert(index).inserted
    }
}
