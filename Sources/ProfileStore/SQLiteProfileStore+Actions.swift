import Foundation
import ProfileDomain
import Scenery
import SceneryLive
import ScenerySiteStore

/// The site store's action ledger (`applied_actions`): the key of every action write this
/// database applied, recorded first in the write's transaction, and one-time keys claimed
/// by servers (resume tokens).
extension SQLiteProfileStore: ActionLedger {
    /// How long the table keeps a key: two days.
    public static var appliedActionsKept: TimeInterval { SQLiteSiteStore.appliedActionsKept }

    public func hasApplied(_ key: ActionKey) async throws -> Bool { try await site.hasApplied(key) }

    @discardableResult
    public func claim(_ key: ActionKey) async throws -> Bool { try await site.claim(key) }
}
