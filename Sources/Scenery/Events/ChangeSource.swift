import Synchronization

/// Who a change comes from: the page whose person acted, or the module that wrote. Each is
/// distinct from every other made in this process.
///
/// A scene is a page's source: a change its person's action made is not announced back on
/// that page (the person knows what they did). A module that shows live data is a writer's
/// source: its own write is not handed back to its subscription (it shows the write's
/// result already). Both travel in the ``WriteContext`` of the task that writes.
///
/// ```swift
/// let writer = ChangeSource()
/// try await WriteContext.current.writing(as: writer).run { try await store.setDone(true, task: 7) }
/// ```
public struct ChangeSource: Hashable, Sendable {
    private static let counter = Atomic<UInt64>(0)

    private let number: UInt64

    /// A source distinct from every other one made in this process.
    public init() {
        number = Self.counter.add(1, ordering: .relaxed).newValue
    }
}
