import Synchronization

/// The page whose person's action is being carried out, so that what a change means is
/// told to other people's pages and never back to the one that made it.
///
/// A scene sets ``current`` while it routes an event (``SceneInstance/send(_:)``). A live
/// data hub reads it when it publishes a write, and sets it again while that change reaches
/// each subscriber, so a module that says what a change means
/// (``ModuleContext/setNeedsRender(_:announcing:)``) on the page that made it is not
/// announced there: the person already knows what they did.
///
/// ```swift
/// let origin = ChangeOrigin.current          // in a hub's publish
/// await ChangeOrigin.$current.withValue(origin) { await subscriber.apply(change) }
/// ```
public struct ChangeOrigin: Hashable, Sendable {
    private static let counter = Atomic<UInt64>(0)

    private let number: UInt64

    /// An origin distinct from every other one made in this process.
    public init() {
        number = Self.counter.add(1, ordering: .relaxed).newValue
    }

    /// The page whose person's action the current task carries out, if any.
    @TaskLocal public static var current: ChangeOrigin?
}
