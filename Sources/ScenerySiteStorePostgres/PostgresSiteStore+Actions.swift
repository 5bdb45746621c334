import Foundation
import Logging
import PostgresNIO
import Scenery
import SceneryLive

/// The `applied_actions` table: the key of every action whose write this database applied
/// (`WriteContext.current.nextWriteKey()` while the write ran), recorded first in the write's transaction, and
/// one-time keys claimed by servers (resume tokens), for every server on the database.
/// Keys are kept for two days, longer than a page can ask to resume.
extension PostgresSiteStore: ActionLedger {
    public func hasApplied(_ key: ActionKey) async throws -> Bool {
        try await reading("check an action") { connection, logger in
            let rows = try await connection.query("SELECT 1 FROM applied_actions WHERE key = \(key.rawValue)", logger: logger)
            for try await _ in rows { return true }
            return false
        }
    }

    @discardableResult
    public func claim(_ key: ActionKey) async throws -> Bool {
        try await writing("record an action") { connection, logger in
            try await Self.record(key, on: connection, logger: logger)
        }
    }

    /// Records `key` in the transaction open on `connection` (one write in 64 also forgets
    /// keys older than two days, so concurrent writes rarely meet on the same old rows);
    /// returns whether it was new.
    @discardableResult
    static func record(_ key: ActionKey, on connection: PostgresConnection, logger: Logger) async throws -> Bool {
        if Int.random(in: 0..<64) == 0 {
            try await connection.query("DELETE FROM applied_actions WHERE at < extract(epoch from now()) - 172800", logger: logger)
        }
        let rows = try await connection.query(
            "INSERT INTO applied_actions (key, at) VALUES (\(key.rawValue), extract(epoch from now())) ON CONFLICT (key) DO NOTHING RETURNING 1",
            logger: logger)
        for try await _ in rows { return true }
        return false
    }
}
