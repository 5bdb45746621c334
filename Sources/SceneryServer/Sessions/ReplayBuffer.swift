/// The numbered messages a page was sent lately, kept so that a page that reconnects is sent
/// what it missed instead of the whole scene: bounded in count, bytes and age.
///
/// A message of the whole scene makes everything before it needless, so a replay may start
/// there. What a page that says it applied message `since` needs is ``missed(since:)``:
/// the messages after it, or `nil` when they are not all kept (the page gets the whole
/// scene instead).
///
/// ```swift
/// var replay = ReplayBuffer(mostMessages: 64, mostBytes: 256 * 1024)
/// replay.keep(sequence: 1, text: patch, isWholeScene: false)
/// replay.missed(since: 0)  // [patch]
/// replay.missed(since: 5)  // nil: the page claims more than was sent
/// ```
struct ReplayBuffer {
    private struct Kept {
        let sequence: Int
        let text: String
        let isWholeScene: Bool
        let sentAt: ContinuousClock.Instant
    }

    private var kept: [Kept] = []
    private var bytes = 0
    private let mostMessages: Int
    private let mostBytes: Int

    /// A buffer that keeps at most `mostMessages` messages and `mostBytes` bytes of them
    /// (always the newest one, whatever its size).
    init(mostMessages: Int, mostBytes: Int) {
        self.mostMessages = mostMessages
        self.mostBytes = mostBytes
    }

    /// How many messages are kept.
    var count: Int { kept.count }

    /// Keeps a numbered message sent at `now`, letting go of the oldest past the bounds.
    mutating func keep(sequence: Int, text: String, isWholeScene: Bool, now: ContinuousClock.Instant = .now) {
        if isWholeScene {
            kept = []
            bytes = 0
        }
        kept.append(Kept(sequence: sequence, text: text, isWholeScene: isWholeScene, sentAt: now))
        bytes += text.utf8.count
        var dropped = 0
        while kept.count - dropped > 1, kept.count - dropped > mostMessages || bytes > mostBytes {
            bytes -= kept[dropped].text.utf8.count
            dropped += 1
        }
        kept.removeFirst(dropped)
    }

    /// The messages after `since`, in order, when every one of them is kept (or the kept
    /// ones start with the whole scene); `nil` when the page must get the whole scene.
    func missed(since: Int) -> [String]? {
        guard since >= 0, let first = kept.first, first.sequence <= since + 1 || first.isWholeScene else { return nil }
        return kept.lazy.filter { $0.sequence > since }.map(\.text)
    }

    /// Lets go of the messages sent longer than `age` before `now`; returns whether any went.
    /// The storage goes with them, so a page idle after a burst returns to its idle memory.
    @discardableResult
    mutating func letGo(olderThan age: Duration, now: ContinuousClock.Instant) -> Bool {
        guard let first = kept.first, now - first.sentAt > age else { return false }
        kept = Array(kept.drop { now - $0.sentAt > age })
        bytes = kept.reduce(0) { $0 + $1.text.utf8.count }
        return true
    }
}
