/// A random number generator that gives the same numbers for the same seed (SplitMix64), so
/// a property test over random trees, events or data is repeatable, and a failing case can
/// be run again from its seed.
///
/// ```swift
/// var random = SeededRandom(seed: 60)
/// for round in 0..<300 {
///     let rows = (0..<Int.random(in: 1...20, using: &random)).map { "row \($0)" }
///     // … build a tree from `rows`, change it, check what the host receives
/// }
/// ```
public struct SeededRandom: RandomNumberGenerator, Sendable {
    private var state: UInt64

    /// A generator whose numbers follow from `seed`.
    public init(seed: UInt64) { state = seed }

    public mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
