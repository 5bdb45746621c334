import Foundation
import Scenery
import SceneryLive

/// The `applied_actions` table: the key of every action write this database applied
/// (`WriteContext.nextWriteKey()` while the write ran), recorded first in the write's
/// transaction, and one-time keys claimed by servers (resume tokens). Keys are kept for
/// ``appliedActionsKept``, longer than a page can ask to resume.
extension SQLiteSiteStore: ActionLedger {
    /// How long the table keeps a key: two days.
    public static let appliedActionsKept: TimeInterval = 2 * 24 * 3600

    public func hasApplied(_ key: ActionKey) async throws -> Bool {
        try await withConnection { connection throws(DataError) in
            try !connection.query("SELECT 1 FROM applied_actions WHERE key = ?", [.text(key.rawValue)]).isEmpty
        }
    }

    @discardableResult
    public func claim(_ key: ActionKey) async throws -> Bool {
        try await withConnection { connection throws(DataError) in
            try connection.transaction { () throws(DataError) -> Bool in try Self.record(key, in: connection) }
        }
    }

    /// Records `key` in the current transaction of `connection` (forgetting keys older than
    /// ``appliedActionsKept``); returns whether it was new.
    @discardableResult
    static func record(_ key: ActionKey, in connection: SQLiteConnection) throws(DataError) -> Bool {
        let now = Date().timeIntervalSince1970
        try connection.run("DELETE FROM applied_actions WHERE at < ?", [.real(now - appliedActionsKept)])
        return try connection.run("INSERT OR IGNORE INTO applied_actions (key, at) VALUES (?, ?)", [.text(key.rawValue), .real(now)]) == 1
    }
}
