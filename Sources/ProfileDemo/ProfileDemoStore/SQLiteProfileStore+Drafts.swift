import Foundation
import ProfileDemoDomain
import Scenery
import ScenerySiteStore

// MARK: - DraftService

extension SQLiteProfileStore: DraftService {
    private static let draftColumns = "SELECT id, owner, title, body, edited_at, version FROM drafts"

    private static func draft(_ row: [SQLValue]) -> Draft {
        Draft(
            id: row[0].integer, owner: UserID(row[1].text ?? ""), title: row[2].text ?? "", body: row[3].text ?? "", editedAt: date(row[4]),
            version: Int(row[5].integer))
    }

    public func drafts(of owner: UserID, viewer: UserID, page: PageRequest) async throws -> Page<Draft> {
        guard viewer == owner else {
            throw ProfileError.notPermitted("Drafts are private: only their owner can see them.")
        }
        return try await withConnection { connection throws(ProfileError) in
            try Self.requireUser(owner, in: connection)
            let rows: [[SQLValue]]
            if let after = page.after?.draftPosition {
                // Keyset: the drafts after that one, however many were edited since.
                rows = try connection.query(
                    """
                    \(Self.draftColumns)
                    WHERE owner = ? AND (edited_at < ? OR (edited_at = ? AND id < ?)) ORDER BY edited_at DESC, id DESC LIMIT ?
                    """, [SQLValue(owner), .real(after.editedAt), .real(after.editedAt), .integer(after.id), SQLValue(page.limit + 1)])
            } else {
                rows = try connection.query(
                    "\(Self.draftColumns) WHERE owner = ? ORDER BY edited_at DESC, id DESC LIMIT ? OFFSET ?",
                    [SQLValue(owner), SQLValue(page.limit + 1), SQLValue(page.offset)])
            }
            return Page(items: rows.prefix(page.limit).map(Self.draft), hasMore: rows.count > page.limit)
        }
    }

    public func save(_ edit: DraftEdit, by owner: UserID) async throws -> Draft {
        let now = Date().timeIntervalSince1970
        return try await withConnection { connection throws(ProfileError) in
            try committing([.drafts(of: owner)], in: connection) { () throws(ProfileError) -> Draft in
                try Self.requireUser(owner, in: connection)
                let id: Int64
                if let existing = edit.draft {
                    _ = try Self.storedDraft(existing, at: edit.version, of: owner, in: connection)
                    try connection.run(
                        "UPDATE drafts SET title = ?, body = ?, edited_at = ?, version = version + 1 WHERE id = ?",
                        [SQLValue(edit.title), SQLValue(edit.body), .real(now), .integer(existing)])
                    id = existing
                } else {
                    try connection.run(
                        "INSERT INTO drafts (owner, title, body, edited_at, version) VALUES (?, ?, ?, ?, 1)",
                        [SQLValue(owner), SQLValue(edit.title), SQLValue(edit.body), .real(now)])
                    id = try connection.query("SELECT last_insert_rowid()")[0][0].integer
                }
                return Self.draft(try connection.query("\(Self.draftColumns) WHERE id = ?", [.integer(id)])[0])
            }
        }
    }

    public func deleteDraft(_ id: Int64, version: Int, by owner: UserID) async throws {
        try await withConnection { connection throws(ProfileError) in
            try committing([.drafts(of: owner)], in: connection) { () throws(ProfileError) in
                _ = try Self.storedDraft(id, at: version, of: owner, in: connection)
                try connection.run("DELETE FROM drafts WHERE id = ?", [.integer(id)])
            }
        }
    }

    public func publishDraft(_ id: Int64, version: Int, by owner: UserID) async throws -> BlogID {
        let now = Date().timeIntervalSince1970
        return try await withConnection { connection throws(ProfileError) in
            try committing([.drafts(of: owner), .blogs(of: owner), .profile(owner)], in: connection) { () throws(ProfileError) -> BlogID in
                let draft = try Self.storedDraft(id, at: version, of: owner, in: connection)
                try connection.run(
                    "INSERT INTO blogs (author, title, body, created_at) VALUES (?, ?, ?, ?)",
                    [SQLValue(owner), SQLValue(draft.title), SQLValue(draft.body), .real(now)])
                let blog = try connection.query("SELECT last_insert_rowid()")[0][0].integer
                try connection.run("DELETE FROM drafts WHERE id = ?", [.integer(id)])
                return BlogID(blog)
            }
        }
    }

    /// The owner's draft `id`, checked to be at `version` (when one is named).
    private static func storedDraft(_ id: Int64, at version: Int?, of owner: UserID, in connection: SQLiteConnection) throws(ProfileError) -> Draft {
        guard let row = try connection.query("\(draftColumns) WHERE id = ? AND owner = ?", [.integer(id), SQLValue(owner)]).first else {
            throw .draftNotFound(id)
        }
        let stored = draft(row)
        if let version, stored.version != version { throw .draftChanged(id, from: version, to: stored.version) }
        return stored
    }
}
