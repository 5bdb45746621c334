/// What one hand-over of published changes to their subscribers cost a ``ChangeHub``: how
/// many changes, how many subscriptions received one (a module of an open page following
/// the entity: one each), and how long handing them over took.
///
/// A hub reports each to the observer given to ``ChangeFeed/observeFanOuts(_:)``, from the
/// publishing task (a change to at most ``ChangeHub/waveSize`` subscribers) or from the hub's
/// own task once its waves are handed over (``isInWaves``). A server turns them into series
/// and spans (`SceneryServer.record(_:)`).
///
/// ```swift
/// store.changeFeed.observeFanOuts { fanOut in
///     print("\(fanOut.changes) change(s) to \(fanOut.deliveries) subscription(s) in \(fanOut.duration)")
/// }
/// ```
public struct FanOut: Sendable, Equatable {
    /// How many changes were published (for waves: the different changes that task handed over).
    public var changes: Int
    /// How many subscriptions received a change.
    public var deliveries: Int
    /// How long handing them over took, from the publish to the last delivery.
    public var duration: Duration
    /// Whether the hub handed them over in waves, from a task of its own.
    public var isInWaves: Bool

    /// A fan-out of `changes` changes to `deliveries` subscriptions that took `duration`.
    public init(changes: Int, deliveries: Int, duration: Duration, isInWaves: Bool) {
        self.changes = changes
        self.deliveries = deliveries
        self.duration = duration
        self.isInWaves = isInWaves
    }
}
