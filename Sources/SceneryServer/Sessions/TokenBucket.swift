/// Allows events at a steady rate with bursts: each event takes a token; tokens refill at
/// `rate` per second up to `capacity`.
struct TokenBucket: Sendable {
    let rate: Double
    let capacity: Double
    private var tokens: Double
    private var last: ContinuousClock.Instant

    init(rate: Double, capacity: Double, now: ContinuousClock.Instant = .now) {
        self.rate = rate
        self.capacity = capacity
        tokens = capacity
        last = now
    }

    /// Takes a token if there is one.
    mutating func take(now: ContinuousClock.Instant = .now) -> Bool {
        let elapsed = now - last
        last = now
        let seconds = Double(elapsed.components.seconds) + Double(elapsed.components.attoseconds) / 1e18
        tokens = min(capacity, tokens + seconds * rate)
        guard tokens >= 1 else { return false }
        tokens -= 1
        return true
    }
}
