/// The outcomes of a scene's most recent events, oldest first, bounded in count and in bytes:
/// what a test, `interact`'s `trace` and a server's inspector read, held by a page open for a
/// day without growing with every tap or with the text its forms send.
///
/// A payload's long texts are cut in the log (a draft's body would otherwise be kept 64
/// times over); the outcome ``SceneInstance/send(_:)`` returns is whole.
///
/// ```swift
/// var log = EventLog(mostOutcomes: 64, mostBytes: 16_384)
/// log.append(outcome)
/// log.outcomes.last  // the outcome, its payload's texts cut to 120 characters
/// ```
struct EventLog {
    private(set) var outcomes: [EventOutcome] = []
    private var sizes: [Int] = []
    private var bytes = 0
    private let mostOutcomes: Int
    private let mostBytes: Int

    /// The longest text of a payload the log keeps, in characters; and how many entries of
    /// an object or array.
    static let longestText = 120
    static let mostEntries = 16

    /// A log of at most `mostOutcomes` outcomes and about `mostBytes` bytes of their text
    /// (always the newest, whatever its size).
    init(mostOutcomes: Int, mostBytes: Int) {
        self.mostOutcomes = mostOutcomes
        self.mostBytes = mostBytes
    }

    /// About how many bytes the kept outcomes' text takes.
    var byteCount: Int { bytes }

    mutating func append(_ outcome: EventOutcome) {
        var kept = outcome
        kept.event.payload = Self.cut(outcome.event.payload)
        kept.finalEvent.payload = Self.cut(outcome.finalEvent.payload)
        let size = Self.size(of: kept)
        outcomes.append(kept)
        sizes.append(size)
        bytes += size
        var dropped = 0
        while outcomes.count - dropped > 1, outcomes.count - dropped > mostOutcomes || bytes > mostBytes {
            bytes -= sizes[dropped]
            dropped += 1
        }
        outcomes.removeFirst(dropped)
        sizes.removeFirst(dropped)
    }

    private static func cut(_ payload: [String: JSONValue]) -> [String: JSONValue] {
        guard case .object(let kept) = JSONValue.object(payload).abridged(longestText: longestText, mostEntries: mostEntries) else { return [:] }
        return kept
    }

    /// About the bytes of an outcome's text: its names, its payloads' texts, its route.
    private static func size(of outcome: EventOutcome) -> Int {
        func size(_ value: JSONValue) -> Int {
            switch value {
            case .string(let text): text.utf8.count
            case .array(let values): values.reduce(8) { $0 + size($1) }
            case .object(let entries): entries.reduce(8) { $0 + $1.key.utf8.count + size($1.value) }
            default: 8
            }
        }
        let events = [outcome.event, outcome.finalEvent].reduce(0) {
            $0 + $1.name.utf8.count + $1.source.rawValue.utf8.count + size(.object($1.payload))
        }
        let rule = outcome.rule.map { $0.on.utf8.count + $0.file.utf8.count } ?? 0
        return events + rule + outcome.route.reduce(0) { $0 + $1.description.utf8.count } + 64
    }
}
