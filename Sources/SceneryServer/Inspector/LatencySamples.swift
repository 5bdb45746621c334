/// The newest durations of one kind (at most ``capacity``), and their percentiles: what the
/// inspector's live page shows as p50 and p99.
///
/// ```swift
/// var samples = LatencySamples(capacity: 512)
/// samples.add(.microseconds(412))
/// samples.percentile(0.99)  // 412 µs
/// ```
struct LatencySamples {
    private var durations: [Duration] = []
    private var next = 0
    /// How many it has seen in all (it keeps the newest ``capacity``).
    private(set) var total = 0
    let capacity: Int

    init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    mutating func add(_ duration: Duration) {
        total += 1
        if durations.count < capacity {
            durations.append(duration)
        } else {
            durations[next] = duration
            next = (next + 1) % capacity
        }
    }

    /// How many it keeps now.
    var count: Int { durations.count }

    /// The nearest-rank percentile of the kept durations (`fraction` in 0...1), or `nil`
    /// when it has none.
    func percentile(_ fraction: Double) -> Duration? {
        guard !durations.isEmpty else { return nil }
        let sorted = durations.sorted()
        let rank = Int((min(max(fraction, 0), 1) * Double(sorted.count)).rounded(.up))
        return sorted[max(rank, 1) - 1]
    }
}
