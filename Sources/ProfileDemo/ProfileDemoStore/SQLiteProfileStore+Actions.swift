import Foundation
import ProfileDemoDomain
import Scenery
import SceneryLive
import ScenerySiteStore

/// The site store's action ledger (`applied_actions`): the key of every action write this
/// database applied, recorded first in the write's transaction, and one-time keys claimed
/// by servers (resume tokens).
extension SQLiteProfileStore {
    /// How long the table keeps a key: two days.
    public static var appliedActionsKept: TimeInterval { SQLiteSiteStore.appliedActionsKept }
}
