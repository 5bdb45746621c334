/// What a development tool lists of a page's recent life, oldest first: each event the page
/// ran, with its route, how long it took and the patches written while it ran (each with how
/// long after the event's start); and each update written while no event ran (a module's load
/// finishing, a change from the feed: another person's write) with what it re-rendered. A
/// server keeps one per page only while its inspector is on (`serve --inspect`), and
/// `scenery interact` one for its scene: nothing else times anything for it.
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
package struct PageTrace {
    /// One message of patches written to the page.
    package struct Patch: Equatable {
        /// The module whose part it changed (`nil`: a tab switch), and the node it replaced.
        package var module: ModuleID?
        package var node: NodeID
        /// How many operations (DOM operations or view-tree patches) it took, and how many
        /// bytes when it was written to a wire (`nil` for a host in the same process).
        package var operations: Int
        package var bytes: Int?
        /// How long after the event's start it was written (`nil`: no event was running).
        package var after: Duration?

        package init(module: ModuleID?, node: NodeID, operations: Int, bytes: Int?) {
            self.module = module
            self.node = node
            self.operations = operations
            self.bytes = bytes
        }

        var description: String {
            let what = module.map { $0.rawValue == node.rawValue ? $0.rawValue : "\($0) (\(node))" } ?? "\(node)"
            return "\(what) \(operations) op\(operations == 1 ? "" : "s")" + (bytes.map { " \($0) B" } ?? "")
                + (after.map { " +\(PageTrace.microseconds($0))" } ?? "")
        }
    }

    /// The most entries kept, and about the most bytes of their text.
    package static let mostEntries = 64
    package static let mostBytes = 16_384
    /// The most patches an event's line names (the rest are counted), and the longest line.
    package static let namedPatches = 8
    package static let longestLine = 600

    package private(set) var lines: [String] = []
    private var bytes = 0
    private var running: (started: ContinuousClock.Instant, patches: [Patch])?
    /// Where each event's time and its first patch's go as well (a server's live page).
    private let report: (@Sendable (_ duration: Duration, _ firstPatch: Duration?) -> Void)?

    /// An empty trace; each event that runs is given to `report` too, when given.
    package init(reporting report: (@Sendable (_ duration: Duration, _ firstPatch: Duration?) -> Void)? = nil) {
        self.report = report
    }

    /// The page started running an event: patches written from now until ``endEvent(_:at:)``
    /// are the event's.
    package mutating func beginEvent(at instant: ContinuousClock.Instant) {
        running = (instant, [])
    }

    /// The event ended: its line is kept, with its route (`nil`: it was refused before it ran,
    /// and no line is kept), its duration and its patches; its time and its first patch's are
    /// reported.
    package mutating func endEvent(_ route: String?, at instant: ContinuousClock.Instant) {
        guard let (started, patches) = running else { return }
        running = nil
        guard let route else { return }
        var line = "\(route) · \(Self.microseconds(instant - started))"
        if !patches.isEmpty {
            let named = patches.prefix(Self.namedPatches).map(\.description).joined(separator: ", ")
            let more = patches.count - Self.namedPatches
            line += " · patches: \(named)" + (more > 0 ? ", and \(more) more" : "")
        } else {
            line += " · no patches"
        }
        keep(line)
        report?(instant - started, patches.first?.after)
    }

    /// A message of patches was written at `instant`: the running event's, or an update's of
    /// its own when no event runs.
    package mutating func record(_ patch: Patch, at instant: ContinuousClock.Instant) {
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
    package var byteCount: Int { bytes }

    /// A duration in whole microseconds: `412 µs`.
    package static func microseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        return "\(seconds * 1_000_000 + attoseconds / 1_000_000_000_000) µs"
    }
}

extension EventOutcome {
    /// The outcome as a trace line names it: its route, and the scene rule that decided
    /// (`· rule 'user.unfollow' at Scenes/user-profile.json:41:5`) when one did.
    package var traceDescription: String {
        description + (rule.map { " · \($0)" } ?? "")
    }
}
