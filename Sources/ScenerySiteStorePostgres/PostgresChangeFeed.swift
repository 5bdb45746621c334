import Scenery
import SceneryLive

/// One app's changes on a ``PostgresSiteStore``: what its modules follow
/// (``PostgresSiteStore/feed(of:)``). Its first subscription starts the store's listening
/// connection.
public struct PostgresChangeFeed<Entity: RecordedEntity>: ChangeFeed {
    let store: PostgresSiteStore
    let hub: ChangeHub<Entity>

    public func changes(to entities: Set<Entity>, ignoringWritesOf writer: ChangeSource?) -> ChangeStream<Entity> {
        let stream = hub.changes(to: entities, ignoringWritesOf: writer)
        _ = store.startListening()
        return stream
    }

    public var changeMark: Int? { hub.changeMark }

    public func hasChanged(_ entities: Set<Entity>, since mark: Int) -> Bool { hub.hasChanged(entities, since: mark) }

    public func observeFanOuts(_ observer: @escaping @Sendable (FanOut) -> Void) { hub.observeFanOuts(observer) }

    /// How many subscriptions are open (modules that show something live).
    public var subscriptionCount: Int { hub.subscriptionCount }

    /// How many open subscriptions follow `entity`.
    public func subscriptionCount(for entity: Entity) -> Int { hub.subscriptionCount(for: entity) }
}

/// One app's feed inside a store, whatever its entity type.
protocol PostgresChannel: AnyObject, Sendable {
    var app: String { get }
    func publish(_ rows: [(kind: String, id: String)], database: String, report: (String) -> Void)
    func publishEverything()
    func publishEverything(inWavesOf waveSize: Int, pause: @Sendable () async -> Void) async
}

/// The feed of one entity type: its hub, and how it reads rows back.
final class PostgresEntityChannel<Entity: RecordedEntity>: PostgresChannel {
    let hub = ChangeHub<Entity>()

    var app: String { Entity.app }

    func publish(_ rows: [(kind: String, id: String)], database: String, report: (String) -> Void) {
        hub.publish(Entity.changes(recordedAs: rows, in: database, report: report))
    }

    func publishEverything() { hub.publish([Entity.everything]) }

    func publishEverything(inWavesOf waveSize: Int, pause: @Sendable () async -> Void) async {
        await hub.publishEverything(inWavesOf: waveSize, pause: pause)
    }
}
