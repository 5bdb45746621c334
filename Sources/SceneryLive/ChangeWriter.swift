import Synchronization

/// Who is writing: a change a writer made is not handed back to that writer's own
/// subscription, so a module that wrote and already shows the write's result does not
/// fetch it again.
///
/// ``LiveChanges/writing(isolation:_:)`` binds the module's writer around a write; a ``ChangeHub``
/// reads ``current`` when it publishes and skips the subscription made for that writer.
/// ``LiveEntity/everything`` reaches every subscription, the writer's too.
///
/// ```swift
/// let count = try await live.writing { try await tasks.setDone(true, task: id) }
/// ```
public struct ChangeWriter: Hashable, Sendable {
    private static let counter = Atomic<UInt64>(0)

    private let number: UInt64

    /// A writer distinct from every other one made in this process.
    public init() {
        number = Self.counter.add(1, ordering: .relaxed).newValue
    }

    /// The writer whose write the current task is making, if any.
    @TaskLocal public static var current: ChangeWriter?
}
