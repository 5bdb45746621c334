import Scenery
import SceneryLive

/// What a development server's live page (``ServerStatsModule``, `/scenes/scenery-stats`)
/// shows: how long events take and how soon their first patch is written, how long fan-outs
/// take, and which module types load slowest, over the newest samples of each. Kept only
/// while the inspector is on (``SceneryServer/Configuration/enablesInspector``): a normal
/// server keeps none.
///
/// It records aggregates only: no viewer, page, argument or text is in it.
final class InspectorStats: SceneRegistry.ActivityObserver {
    /// The newest samples kept of each kind.
    static let keptSamples = 512
    /// How many module types the page lists, slowest first.
    static let listedModules = 5

    struct Figures {
        var events = LatencySamples(capacity: InspectorStats.keptSamples)
        var firstPatches = LatencySamples(capacity: InspectorStats.keptSamples)
        var fanOuts = LatencySamples(capacity: InspectorStats.keptSamples)
        var lastFanOutDeliveries = 0
        var loads: [String: LatencySamples] = [:]
        /// One more each time a figure changes: the page renders again only when it moved.
        var version = 0
    }

    private let figures = Locked(Figures())

    /// The figures as they stand.
    var current: Figures { figures.withLock { $0 } }

    /// An event ran for `duration`; its first patch was written `firstPatch` after it began.
    func recordEvent(duration: Duration, firstPatch: Duration?) {
        figures.withLock {
            $0.events.add(duration)
            if let firstPatch { $0.firstPatches.add(firstPatch) }
            $0.version += 1
        }
    }

    /// A change feed handed changes to its subscribers.
    func record(_ fanOut: FanOut) {
        figures.withLock {
            $0.fanOuts.add(fanOut.duration)
            $0.lastFanOutDeliveries = fanOut.deliveries
            $0.version += 1
        }
    }

    /// A module's load ended (the registry's observer): timed by module type.
    func record(_ activity: SceneRegistry.Activity, inScene sceneID: String) {
        guard case .loaded(_, let type, let duration, _) = activity else { return }
        figures.withLock {
            $0.loads[type, default: LatencySamples(capacity: Self.keptSamples)].add(duration)
            $0.version += 1
        }
    }
}
