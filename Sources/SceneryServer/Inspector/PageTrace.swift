import Scenery

/// What the inspector lists of a page's recent life, oldest first: each event the page ran,
/// with its route, how long it took and the patches written while it ran (each with how long
/// after the event's start); and each update written while no event ran (a module's load
/// finishing, a change from the feed: another person's write) with what it re-rendered. Kept by a session only while the
/// inspector is on (``SceneryServer/Configuration/enablesInspector``): a normal server times
/// nothing for it.
///
/// Bounded in entries and in bytes, so a page open for a day, or one that re-renders a long
/// list on every change, keeps the same few kilobytes.
///
/// ```swift
/// var trace = PageTrace()
/// trace.beginEvent(at: .now)
/// trace.record(PageTrace.Patch(module: "blogs", node: "blogs", operations: 3, bytes: 214), at: .now)
/// trace.endEvent(outcome.description, at: .now)
/// trace.lines  // ["blog.like from blogs/blog.26.like: … · 412 µs · patches: blogs 3 ops 214 B +180 µs"]
/// ```
struct PageTrace {
    /// One message of patches written to the page.
    struct Patch: Equatable {
        /// The module whose part it changed (`nil`: a tab switch), and the node it replaced.
        var module: ModuleID?
        var node: NodeID
        /// How many operations (DOM operations or view-tree patches) and bytes the message took.
        var operations: Int
        var bytes: Int
        /// How long after the event's start it was written (`nil`: no event was running).
        var after: Duration?

        var description: String {
            let what = module.map { $0.rawValue == node.rawValue ? $0.rawValue : "\($0) (\(node))" } ?? "\(node)"
            return "\(what) \(operations) op\(operations == 1 ? "" : "s") \(bytes) B" + (after.map { " +\(PageTrace.microseconds($0))" } ?? "")
        }
    }

    /// The most entries kept, and about the most bytes of their text.
    static let mostEntries = 64
    static let mostBytes = 16_384
    /// The most patches an event's line names (the rest are counted), and the longest line.
    static let namedPatches = 8
    static let longestLine = 600

    private(set) var lines: [String] = []
    private var bytes = 0
    private var running: (started: ContinuousClock.Instant, patches: [Patch])?
    /// Where each event's time and first patch go as well: the server's live page.
    private let stats: InspectorStats?

    /// An empty trace; each event that runs is reported to `stats` too, when given.
    init(reportingTo stats: InspectorStats? = nil) {
        self.stats = stats
    }

    /// The page started running an event: patches written from now until ``endEvent(_:at:)``
    /// are the event's.
    mutating func beginEvent(at instant: ContinuousClock.Instant) {
        running = (instant, [])
    }

    /// The event ended: its line is kept, with its route (`nil`: it was refused before it ran,
    /// and no line is kept), its duration and its patches. Returns how long it took and when
    /// its first patch was written, for an event that ran (reported to the live page's figures
    /// too).
    @discardableResult
    mutating func endEvent(_ route: String?, at instant: ContinuousClock.Instant) -> (duration: Duration, firstPatch: Duration?)? {
        guard let (started, patches) = running else { return nil }
        running = nil
        guard let route else { return nil }
        var line = "\(route) · \(Self.microseconds(instant - started))"
        if !patches.isEmpty {
            let named = patches.prefix(Self.namedPatches).map(\.description).joined(separator: ", ")
            let more = patches.count - Self.namedPatches
            line += " · patches: \(named)" + (more > 0 ? ", and \(more) more" : "")
        } else {
            line += " · no patches"
        }
        keep(line)
        stats?.recordEvent(duration: instant - started, firstPatch: patches.first?.after)
        return (instant - started, patches.first?.after)
    }

    /// A message of patches was written at `instant`: the running event's, or an update's of
    /// its own when no event runs.
    mutating func record(_ patch: Patch, at instant: ContinuousClock.Instant) {
        if let started = running?.started {
            var patch = patch
            patch.after = instant - started
            running?.patches.append(patch)
        } else {
            keep("update: \(patch.description)")
        }
    }

    private mutating func keep(_ line: String) {
        let kept = line.count > Self.longestLine ? line.prefix(Self.longestLine) + "…" : line
        lines.append(kept)
        bytes += kept.utf8.count
        var dropped = 0
        while lines.count - dropped > 1, lines.count - dropped > Self.mostEntries || bytes > Self.mostBytes {
            bytes -= lines[dropped].utf8.count
            dropped += 1
        }
        lines.removeFirst(dropped)
    }

    /// About how many bytes the kept lines take.
    var byteCount: Int { bytes }

    /// A duration in whole microseconds: `412 µs`.
    static func microseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return "\(seconds * 1_000_000 + attoseconds / 1_000_000_000_000) µs"
    }
}
