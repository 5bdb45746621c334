import Foundation
import Guestbook
import ProfileDemoDomain
import Scenery
import SceneryLive
import ScenerySiteStore
import ScenerySiteStorePostgres

/// The guestbook's data as a data file holds it: every message of every book.
struct GuestbookData: Codable, Sendable {
    struct Row: Codable, Sendable {
        var id: Int64, owner: String, author: String, text: String
    }
    var messages: [Row]

    /// Every message checked as the form checks it (1 to 280 characters).
    func checked() throws(DataError) -> [Row] {
        let problems = messages.indices.filter { !(1...280).contains(messages[$0].text.count) }.map {
            DataProblem(path: "messages[\($0)].text", message: "must have 1 to 280 characters.")
        }
        guard problems.isEmpty else { throw .invalidData(problems) }
        return messages
    }

    static let demo = GuestbookData(messages: [Row(id: 1, owner: "1", author: "2", text: "Lovely tea party!")])
}

/// The guestbook on the profile's SQLite database.
final class SQLiteGuestbook: GuestbookService, ForwardingChangeFeed {
    let site: SQLiteSiteStore
    let forwardedFeed: any ChangeFeed<GuestbookChange>

    init(_ site: SQLiteSiteStore) {
        self.site = site
        forwardedFeed = site.feed(of: GuestbookChange.self)
    }

    static let tables = SiteSchema(
        app: GuestbookChange.app,
        steps: [
            "CREATE TABLE guestbook_messages (id INTEGER PRIMARY KEY, owner TEXT NOT NULL, author TEXT NOT NULL, text TEXT NOT NULL)",
            "CREATE INDEX guestbook_by_owner ON guestbook_messages (owner, id)",
        ]
    ) { connection throws(DataError) in try data.seed(in: connection) }

    static let data = SiteDataSet(
        app: GuestbookChange.app, empty: GuestbookData(messages: []), demo: .demo,
        read: { connection throws(DataError) in
            GuestbookData(
                messages: try connection.query("SELECT id, owner, author, text FROM guestbook_messages ORDER BY id").map {
                    .init(id: $0[0].integer, owner: $0[1].text ?? "", author: $0[2].text ?? "", text: $0[3].text ?? "")
                })
        },
        replace: { data, connection throws(DataError) in
            try connection.run("DELETE FROM guestbook_messages")
            for row in try data.checked() {
                try connection.run(
                    "INSERT INTO guestbook_messages (id, owner, author, text) VALUES (?, ?, ?, ?)",
                    [.integer(row.id), .text(row.owner), .text(row.author), .text(row.text)])
            }
            return "\(data.messages.count) messages"
        })

    func messages(in owner: String, page: PageRequest) async throws -> Page<GuestbookMessage> {
        let rows = try await site.withConnection { connection throws(DataError) in
            try connection.query(
                "SELECT id, author, text FROM guestbook_messages WHERE owner = ? ORDER BY id DESC LIMIT ? OFFSET ?",
                [.text(owner), .integer(Int64(page.limit + 1)), .integer(Int64(page.offset))])
        }
        let messages = rows.map { GuestbookMessage(id: $0[0].integer, author: $0[1].text ?? "", text: $0[2].text ?? "") }
        return Page(items: Array(messages.prefix(page.limit)), hasMore: messages.count > page.limit)
    }

    func sign(_ owner: String, as author: String, text: String) async throws {
        try await site.withConnection { [site] connection throws(DataError) in
            try site.commit([GuestbookChange.book(owner)], in: connection) { () throws(DataError) in
                try connection.run("INSERT INTO guestbook_messages (owner, author, text) VALUES (?, ?, ?)", [.text(owner), .text(author), .text(text)])
            }
        }
    }

    func delete(_ message: Int64, from owner: String, by viewer: String) async throws {
        guard viewer == owner else { throw DataError.notPermitted("Only the guestbook's owner may delete its messages.") }
        try await site.withConnection { [site] connection throws(DataError) in
            try site.commit([GuestbookChange.book(owner)], in: connection) { () throws(DataError) in
                try connection.run("DELETE FROM guestbook_messages WHERE id = ? AND owner = ?", [.integer(message), .text(owner)])
            }
        }
    }
}

/// The guestbook on the profile's PostgreSQL database (several servers).
final class PostgresGuestbook: GuestbookService, ForwardingChangeFeed {
    let site: PostgresSiteStore
    let forwardedFeed: any ChangeFeed<GuestbookChange>

    init(_ site: PostgresSiteStore) {
        self.site = site
        forwardedFeed = site.feed(of: GuestbookChange.self)
    }

    static let tables = PostgresSiteSchema(
        app: GuestbookChange.app,
        steps: [
            "CREATE TABLE guestbook_messages (id BIGSERIAL PRIMARY KEY, owner TEXT NOT NULL, author TEXT NOT NULL, text TEXT NOT NULL);"
                + "CREATE INDEX guestbook_by_owner ON guestbook_messages (owner, id)"
        ]
    ) { connection, logger in try await data.seed(on: connection, logger: logger) }

    static let data = PostgresDataSet(
        app: GuestbookChange.app, empty: GuestbookData(messages: []), demo: .demo,
        read: { connection, logger in
            var rows: [GuestbookData.Row] = []
            let query = try await connection.query("SELECT id, owner, author, text FROM guestbook_messages ORDER BY id", logger: logger)
            for try await (id, owner, author, text) in query.decode((Int64, String, String, String).self) {
                rows.append(.init(id: id, owner: owner, author: author, text: text))
            }
            return GuestbookData(messages: rows)
        },
        replace: { data, connection, logger in
            try await connection.query("DELETE FROM guestbook_messages", logger: logger)
            for row in try data.checked() {
                try await connection.query(
                    "INSERT INTO guestbook_messages (id, owner, author, text) VALUES (\(row.id), \(row.owner), \(row.author), \(row.text))", logger: logger)
            }
            try await connection.query(
                "SELECT setval(pg_get_serial_sequence('guestbook_messages', 'id'), COALESCE(MAX(id), 0) + 1, false) FROM guestbook_messages", logger: logger)
            return "\(data.messages.count) messages"
        })

    func messages(in owner: String, page: PageRequest) async throws -> Page<GuestbookMessage> {
        let (limit, offset) = (page.limit + 1, page.offset)
        let messages = try await site.reading("read the guestbook") { connection, logger in
            var messages: [GuestbookMessage] = []
            let query = try await connection.query(
                "SELECT id, author, text FROM guestbook_messages WHERE owner = \(owner) ORDER BY id DESC LIMIT \(limit) OFFSET \(offset)", logger: logger)
            for try await (id, author, text) in query.decode((Int64, String, String).self) {
                messages.append(GuestbookMessage(id: id, author: author, text: text))
            }
            return messages
        }
        return Page(items: Array(messages.prefix(page.limit)), hasMore: messages.count > page.limit)
    }

    func sign(_ owner: String, as author: String, text: String) async throws {
        try await site.writing("sign the guestbook", announcing: [GuestbookChange.book(owner)]) { connection, logger in
            try await connection.query("INSERT INTO guestbook_messages (owner, author, text) VALUES (\(owner), \(author), \(text))", logger: logger)
        }
    }

    func delete(_ message: Int64, from owner: String, by viewer: String) async throws {
        guard viewer == owner else { throw DataError.notPermitted("Only the guestbook's owner may delete its messages.") }
        try await site.writing("delete a message", announcing: [GuestbookChange.book(owner)]) { connection, logger in
            try await connection.query("DELETE FROM guestbook_messages WHERE id = \(message) AND owner = \(owner)", logger: logger)
        }
    }
}
