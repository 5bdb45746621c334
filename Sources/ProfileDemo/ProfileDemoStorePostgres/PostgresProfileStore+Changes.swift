import ProfileDemoDomain
import Scenery
import SceneryLive

/// The change feed across servers is the site store's feed of `ProfileChange` (see
/// `PostgresSiteStore`): every write sends `NOTIFY` with what it changed in its own
/// transaction; others' writes arrive on the listening connection.
extension PostgresProfileStore {
    public func changes(to entities: Set<ProfileChange>, ignoringWritesOf writer: ChangeSource?) -> ChangeStream<ProfileChange> {
        feed.changes(to: entities, ignoringWritesOf: writer)
    }

    /// How many subscriptions are open (modules that show something live).
    public var subscriptionCount: Int { feed.subscriptionCount }

    /// How many open subscriptions follow `entity`.
    public func subscriptionCount(for entity: ProfileChange) -> Int { feed.subscriptionCount(for: entity) }

    public var changeMark: Int? { feed.changeMark }

    public func hasChanged(_ entities: Set<ProfileChange>, since mark: Int) -> Bool { feed.hasChanged(entities, since: mark) }

    public func observeFanOuts(_ observer: @escaping @Sendable (FanOut) -> Void) { feed.observeFanOuts(observer) }
}
