import Foundation
import PostgresNIO
import ProfileDemoDomain
import ProfileDemoStore
import Scenery

// MARK: - DraftService

extension PostgresProfileStore {  // DraftService
    /// A draft from the columns `id, owner, title, body, edited_at, version`.
    static func draft(_ row: PostgresRow) throws -> Draft {
        let (id, owner, title, body, edited, version) = try row.decode((Int64, String, String, String, Double, Int64).self)
        return Draft(id: id, owner: UserID(owner), title: title, body: body, editedAt: Date(timeIntervalSince1970: edited), version: Int(version))
    }

    public func drafts(of owner: UserID, viewer: UserID, page: PageRequest) async throws -> Page<Draft> {
        guard viewer == owner else {
            throw ProfileError.notPermitted("Drafts are private: only their owner can see them.")
        }
        return try await reading("read drafts") { connection, logger in
            try await Self.requireUser(owner, on: connection, logger: logger)
            // Keyset when the request names the last draft shown.
            let after = page.after?.draftPosition
            let rows = try await connection.query(
                """
                SELECT id, owner, title, body, edited_at, version FROM drafts WHERE owner = \(owner.rawValue)
                  AND (\(after == nil) OR (edited_at, id) < (\(after?.editedAt ?? 0), \(after?.id ?? 0)))
                ORDER BY edited_at DESC, id DESC LIMIT \(Int64(page.limit + 1)) OFFSET \(Int64(after == nil ? page.offset : 0))
                """, logger: logger
            ).collect()
            return Page(items: try rows.prefix(page.limit).map(Self.draft), hasMore: rows.count > page.limit)
        }
    }

    public func save(_ edit: DraftEdit, by owner: UserID) async throws -> Draft {
        let now = Date().timeIntervalSince1970
        // New ids are the largest plus one, so new drafts take a lock while they count.
        return try await writing("save a draft", announcing: [.drafts(of: owner)], locking: edit.draft == nil ? "draft-ids" : nil) {
            connection, logger in
            try await Self.requireUser(owner, on: connection, logger: logger)
            let id: Int64
            if let existing = edit.draft {
                _ = try await Self.storedDraft(existing, at: edit.version, of: owner, on: connection, logger: logger)
                try await connection.query(
                    "UPDATE drafts SET title = \(edit.title), body = \(edit.body), edited_at = \(now), version = version + 1 WHERE id = \(existing)",
                    logger: logger)
                id = existing
            } else {
                id = try await connection.query(
                    """
                    INSERT INTO drafts (id, owner, title, body, edited_at, version)
                    SELECT COALESCE(MAX(id), 0) + 1, \(owner.rawValue), \(edit.title), \(edit.body), \(now), 1 FROM drafts
                    RETURNING id
                    """, logger: logger
                ).collect()[0].decode(Int64.self)
            }
            let rows = try await connection.query(
                "SELECT id, owner, title, body, edited_at, version FROM drafts WHERE id = \(id)", logger: logger
            ).collect()
            return try Self.draft(rows[0])
        }
    }

    public func deleteDraft(_ id: Int64, version: Int, by owner: UserID) async throws {
        try await writing("delete a draft", announcing: [.drafts(of: owner)]) { connection, logger in
            _ = try await Self.storedDraft(id, at: version, of: owner, on: connection, logger: logger)
            try await connection.query("DELETE FROM drafts WHERE id = \(id)", logger: logger)
        }
    }

    public func publishDraft(_ id: Int64, version: Int, by owner: UserID) async throws -> BlogID {
        let now = Date().timeIntervalSince1970
        return try await writing("publish a draft", announcing: [.drafts(of: owner), .blogs(of: owner), .profile(owner)], locking: "blog-ids") {
            connection, logger in
            let draft = try await Self.storedDraft(id, at: version, of: owner, on: connection, logger: logger)
            let blog = try await connection.query(
                """
                INSERT INTO blogs (id, author, title, body, created_at)
                SELECT COALESCE(MAX(id), 0) + 1, \(owner.rawValue), \(draft.title), \(draft.body), \(now) FROM blogs
                RETURNING id
                """, logger: logger
            ).collect()[0].decode(Int64.self)
            try await connection.query("DELETE FROM drafts WHERE id = \(id)", logger: logger)
            return BlogID(blog)
        }
    }

    /// The owner's draft `id`, locked for the write and checked to be at `version` (when
    /// one is named).
    private static func storedDraft(_ id: Int64, at version: Int?, of owner: UserID, on connection: PostgresConnection, logger: Logger) async throws -> Draft {
        let rows = try await connection.query(
            "SELECT id, owner, title, body, edited_at, version FROM drafts WHERE id = \(id) AND owner = \(owner.rawValue) FOR UPDATE", logger: logger
        ).collect()
        guard let row = rows.first else { throw ProfileError.draftNotFound(id) }
        let stored = try draft(row)
        if let version, stored.version != version { throw ProfileError.draftChanged(id, from: version, to: stored.version) }
        return stored
    }
}
