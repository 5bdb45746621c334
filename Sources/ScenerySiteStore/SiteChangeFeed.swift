import Scenery
import SceneryLive

/// One app's changes on a ``SQLiteSiteStore``: what its modules follow
/// (``SQLiteSiteStore/feed(of:)``). Its first subscription starts the store's watcher for
/// other processes' writes.
public struct SiteChangeFeed<Entity: RecordedEntity>: ChangeFeed {
    let store: SQLiteSiteStore
    let hub: ChangeHub<Entity>

    public func changes(to entities: Set<Entity>, ignoringWritesOf writer: ChangeSource?) -> ChangeStream<Entity> {
        let stream = hub.changes(to: entities, ignoringWritesOf: writer)
        store.startWatching()
        return stream
    }

    public var changeMark: Int? { hub.changeMark }

    public func hasChanged(_ entities: Set<Entity>, since mark: Int) -> Bool { hub.hasChanged(entities, since: mark) }

    public func observeFanOuts(_ observer: @escaping @Sendable (FanOut) -> Void) { hub.observeFanOuts(observer) }

    /// How many subscriptions are open (modules that show something live).
    public var subscriptionCount: Int { hub.subscriptionCount }

    /// How many open subscriptions follow `entity`.
    public func subscriptionCount(for entity: Entity) -> Int { hub.subscriptionCount(for: entity) }

    /// Tells every subscriber that anything may have changed, in waves (see
    /// `ChangeHub.publishEverything(inWavesOf:pause:)`).
    public func publishEverything() { hub.publish([Entity.everything]) }
}
