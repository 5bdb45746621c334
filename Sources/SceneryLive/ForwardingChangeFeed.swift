import Scenery

/// A change feed whose changes are another feed's: a store whose changes its site store's
/// feed carries, or a wrapper in front of a store (a fault injector), names that feed and
/// is a ``ChangeFeed`` with nothing to forward.
///
/// ```swift
/// public final class SQLiteBoardStore: BoardService, ForwardingChangeFeed {
///     private let feed: SiteChangeFeed<BoardChange>
///     public var forwardedFeed: any ChangeFeed<BoardChange> { feed }
///     // changes(to:ignoringWritesOf:), changeMark, hasChanged(_:since:) and
///     // observeFanOuts(_:) are the feed's.
/// }
/// ```
///
/// A type whose `Entity` nothing else fixes (a service protocol of the app usually does)
/// names it: `typealias Entity = BoardChange`.
public protocol ForwardingChangeFeed<Entity>: ChangeFeed {
    /// The feed whose changes, mark and fan-outs this one's are.
    var forwardedFeed: any ChangeFeed<Entity> { get }
}

extension ForwardingChangeFeed {
    public func changes(to entities: Set<Entity>, ignoringWritesOf writer: ChangeSource?) -> ChangeStream<Entity> {
        forwardedFeed.changes(to: entities, ignoringWritesOf: writer)
    }

    public var changeMark: Int? { forwardedFeed.changeMark }

    public func hasChanged(_ entities: Set<Entity>, since mark: Int) -> Bool {
        forwardedFeed.hasChanged(entities, since: mark)
    }

    public func observeFanOuts(_ observer: @escaping @Sendable (FanOut) -> Void) {
        forwardedFeed.observeFanOuts(observer)
    }
}
