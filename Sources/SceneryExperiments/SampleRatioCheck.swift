import Foundation
import Scenery

/// Whether an experiment's arms got the shares of people their weights promise: a
/// chi-squared goodness-of-fit test of the assigned counts against the weights. A sample
/// ratio mismatch means the assignment or the logging is broken (a crash in one arm, a bot
/// filter that treats arms differently), and the experiment's results cannot be trusted.
///
/// ```swift
/// let check = SampleRatioCheck(counts: [5_200, 4_800], weights: [50, 50])
/// check.chiSquared     // 16.0
/// check.pValue         // 0.0000633…
/// check.isMismatched   // true: p < 0.001
/// ```
public struct SampleRatioCheck: Sendable, Hashable {
    /// The count of units assigned to each arm.
    public var counts: [Int]
    /// Each arm's weight.
    public var weights: [Double]
    /// The chi-squared statistic.
    public var chiSquared: Double
    /// Degrees of freedom: arms minus one.
    public var degreesOfFreedom: Int
    /// The probability of a split at least this far off by chance alone.
    public var pValue: Double
    /// The p-value under which the split is called a mismatch; 0.001 by default, the usual
    /// threshold for this check (it runs on every experiment, every day).
    public var threshold: Double

    /// Tests counts against weights (same order, positive weights, at least two arms).
    public init(counts: [Int], weights: [Double], threshold: Double = 0.001) {
        self.counts = counts
        self.weights = weights
        self.threshold = threshold
        let total = Double(counts.reduce(0, +))
        let weightSum = weights.reduce(0, +)
        var statistic = 0.0
        if total > 0, weightSum > 0 {
            for (count, weight) in zip(counts, weights) {
                let expected = total * weight / weightSum
                guard expected > 0 else { continue }
                statistic += (Double(count) - expected) * (Double(count) - expected) / expected
            }
        }
        chiSquared = statistic
        degreesOfFreedom = max(counts.count - 1, 1)
        pValue = Self.upperRegularizedGamma(Double(degreesOfFreedom) / 2, statistic / 2)
    }

    /// Whether the split is off: `pValue < threshold`.
    public var isMismatched: Bool { pValue < threshold }

    /// Q(a, x) = Γ(a, x) / Γ(a): by its power series below a + 1, by Lentz's continued
    /// fraction above, each to double precision.
    package static func upperRegularizedGamma(_ a: Double, _ x: Double) -> Double {
        guard x > 0 else { return 1 }
        let logPrefix = a * log(x) - x - lgamma(a)
        if x < a + 1 {
            var term = 1 / a
            var sum = term
            var n = a
            for _ in 0..<1_000 {
                n += 1
                term *= x / n
                sum += term
                if abs(term) < abs(sum) * 1e-15 { break }
            }
            return max(0, 1 - sum * exp(logPrefix))
        }
        let tiny = 1e-300
        var b = x + 1 - a
        var c = 1 / tiny
        var d = 1 / b
        var fraction = d
        for i in 1...1_000 {
            let an = -Double(i) * (Double(i) - a)
            b += 2
            d = an * d + b
            if abs(d) < tiny { d = tiny }
            c = b + an / c
            if abs(c) < tiny { c = tiny }
            d = 1 / d
            let step = d * c
            fraction *= step
            if abs(step - 1) < 1e-15 { break }
        }
        return min(1, exp(logPrefix) * fraction)
    }
}
