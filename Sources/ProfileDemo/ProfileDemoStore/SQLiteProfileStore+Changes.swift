import Foundation
import ProfileDemoDomain
import Scenery
import SceneryLive
import ScenerySiteStore

/// The store's change feed is the site store's feed of `ProfileChange`: every write records
/// what it changed in the `changes` table, in its own transaction, and publishes it to this
/// process's subscribers once committed; while anyone subscribes, the site store watches for
/// other processes' writes and publishes theirs (see `SQLiteSiteStore`).
extension SQLiteProfileStore: ChangeFeed {
    /// How many changes the table keeps for other processes to read.
    public static var changesKept: Int64 { SQLiteSiteStore.changesKept }

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

    /// Runs a write that records `changes` (and first the action's key), then publishes them
    /// once it committed; called with the connection held (see `SQLiteSiteStore.commit`).
    func committing<T>(
        _ changes: [ProfileChange], in connection: SQLiteConnection, _ write: () throws(ProfileError) -> T
    ) throws(ProfileError) -> T {
        try site.commit(changes, in: connection, write)
    }

    /// The id of the newest change ever recorded.
    static func lastChangeID(_ connection: SQLiteConnection) throws(ProfileError) -> Int64 {
        try SQLiteSiteStore.lastChangeID(connection)
    }
}
