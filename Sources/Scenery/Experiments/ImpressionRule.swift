/// When something on screen counts as seen: at least a fraction of it visible for at least
/// a time. The default is the common advertising rule, half for one second.
///
/// ```swift
/// var registry = SceneRegistry()
/// registry.impressionRule = ImpressionRule(minimumVisibleFraction: 0.5, minimumDuration: .seconds(1))
/// ```
package struct ImpressionRule: Sendable, Hashable {
    /// How much of the node must be on screen, from 0 (a pixel) to 1 (all of it).
    package var minimumVisibleFraction: Double
    /// How long it must stay that visible without a break.
    package var minimumDuration: Duration

    /// Creates a rule; the fraction is clamped to 0...1 and a negative duration taken as zero.
    package init(minimumVisibleFraction: Double = 0.5, minimumDuration: Duration = .seconds(1)) {
        self.minimumVisibleFraction = minimumVisibleFraction.isFinite ? min(max(minimumVisibleFraction, 0), 1) : 0.5
        self.minimumDuration = max(minimumDuration, .zero)
    }

    /// Half visible for one second.
    package static let standard = ImpressionRule()
}
