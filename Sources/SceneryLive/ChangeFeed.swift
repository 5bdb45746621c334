import Scenery

/// Where a module learns that the data it shows changed, from any writer: this process or
/// another one on the same database.
///
/// A store conforms, usually by handing ``changes(to:ignoringWritesOf:)`` to the
/// ``ChangeHub`` it publishes to. A subscription lasts until the task iterating it is
/// cancelled; it receives only the changes it asked for, and ``LiveEntity/everything``,
/// merged by entity while it is busy (see ``ChangeStream``).
///
/// ```swift
/// for await change in feed.changes(to: [.task(7)]) {
///     // fetch what this module shows of `change` again
/// }
/// ```
public protocol ChangeFeed<Entity>: Sendable {
    /// What the feed's changes name.
    associatedtype Entity: LiveEntity

    /// The changes to `entities` from now on, except those made by `writer` (see
    /// `ChangeSource`). The subscription is open on return.
    func changes(to entities: Set<Entity>, ignoringWritesOf writer: ChangeSource?) -> ChangeStream<Entity>

    /// The feed's position now, for ``hasChanged(_:since:)``; `nil` when the feed keeps no
    /// history (the default).
    var changeMark: Int? { get }

    /// Whether a change to one of `entities` (or ``LiveEntity/everything``) was published
    /// since `mark`; `true` when the feed no longer knows. A module that loaded before it
    /// followed anything (in a tab not yet shown) asks when it first follows.
    func hasChanged(_ entities: Set<Entity>, since mark: Int) -> Bool

    /// Reports each hand-over of changes to subscribers to `observer` from now on (replacing
    /// an observer given before): what a server's telemetry records. A feed that does not
    /// report them ignores it (the default).
    func observeFanOuts(_ observer: @escaping @Sendable (FanOut) -> Void)
}

extension ChangeFeed {
    /// The changes to `entities` from now on, from every writer.
    public func changes(to entities: Set<Entity>) -> ChangeStream<Entity> { changes(to: entities, ignoringWritesOf: nil) }

    /// No history: `nil`.
    public var changeMark: Int? { nil }

    /// Reports nothing.
    public func observeFanOuts(_ observer: @escaping @Sendable (FanOut) -> Void) {}

    /// No history: `true`.
    public func hasChanged(_ entities: Set<Entity>, since mark: Int) -> Bool { true }
}
