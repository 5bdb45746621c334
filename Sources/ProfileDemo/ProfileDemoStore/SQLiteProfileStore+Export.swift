import Foundation
import ProfileDemoDomain
import Scenery
import SceneryExperiments
import ScenerySiteStore

extension SQLiteProfileStore {
    /// Everything in the database, in id order.
    ///
    /// Holds the whole data set in memory; ``exportJSON(to:)`` writes the same data one
    /// record at a time.
    ///
    /// - Throws: `ProfileError/storage(_:)` naming the database, the table and the row of a
    ///   value this program cannot have written (an id that is not an integer, a date outside
    ///   the years 1–9999), rather than exporting something that cannot be imported again.
    public func exportData() throws(ProfileError) -> ProfileDataSet {
        var dataSet = ProfileDataSet(users: [])
        try withConnection { connection throws(ProfileError) in
            let reader = RecordReader(connection: connection, path: path)
            try reader.blogs { dataSet.blogs.append($0) }
            try reader.drafts { dataSet.drafts.append($0) }
            try reader.follows { dataSet.follows.append($0) }
            try reader.friendships { dataSet.friendships.append($0) }
            try reader.likes { dataSet.likes.append($0) }
            try reader.users { dataSet.users.append($0) }
        }
        return dataSet
    }

    /// Writes everything in the database as JSON, one record at a time: the same text as
    /// `exportData().encoded()`, in memory that does not grow with the data.
    ///
    /// ```swift
    /// try store.exportJSON { chunk in try handle.write(contentsOf: Data(chunk.utf8)) }
    /// ```
    ///
    /// - Parameter write: Receives the text in order, in chunks of about 64 KB.
    /// - Throws: `ProfileError/storage(_:)` for a row this program cannot have written
    ///   (as ``exportData()``), or what `write` throws. Part of the text may have been
    ///   written by then: write to a temporary file and keep it only if this returns.
    public func exportJSON(to write: (String) throws -> Void) throws {
        try withoutActuallyEscaping(write) { write in try exportJSON(with: StreamingJSONWriter(write: write)) }
    }

    private func exportJSON(with writer: StreamingJSONWriter) throws {
        var writer = writer
        try withConnection { connection throws(ProfileError) in Self.exportJSON(from: connection, with: &writer) }
        if let failure = writer.failure { throw failure }
    }

    /// Writes the data set read from `connection`, keeping the first failure in `writer`.
    private static func exportJSON(from connection: SQLiteConnection, with writer: inout StreamingJSONWriter) {
        let reader = RecordReader(connection: connection, path: connection.path)
        // In key order, as a sorted-keys encoder writes them.
        do {
            try writer.open()
            try writer.array("blogs") { record throws(ProfileError) in try reader.blogs(record) }
            try writer.array("drafts") { record throws(ProfileError) in try reader.drafts(record) }
            try writer.array("follows") { record throws(ProfileError) in try reader.follows(record) }
            try writer.scalar("format", #""scenery.profile-data""#)
            try writer.array("friendships") { record throws(ProfileError) in try reader.friendships(record) }
            try writer.array("likes") { record throws(ProfileError) in try reader.likes(record) }
            try writer.array("users") { record throws(ProfileError) in try reader.users(record) }
            try writer.scalar("version", "1")
            try writer.close()
        } catch {
            writer.failure = writer.failure ?? error
        }
    }

    /// The profile's data as a part of the database's data: what `data export` writes, and
    /// `data import` and `reset` replace, with the data of the app's other parts
    /// (`ModuleCatalog.addingData(_:)`), in one file and one transaction. Its section is a
    /// profile data file (``ProfileDataSet``); a file without one empties the profile.
    public var partData: any PartData { dataSet }

    public var dataSet: SiteDataSet {
        SiteDataSet(
            app: ProfileChange.app,
            export: { connection, write in
                try withoutActuallyEscaping(write) { write in
                    var writer = StreamingJSONWriter(write: write)
                    Self.exportJSON(from: connection, with: &writer)
                    if let failure = writer.failure { throw failure }
                }
            },
            replace: { section, connection throws(DataError) in
                let dataSet = try section.map(ProfileDataSet.decode) ?? ProfileDataSet(users: [])
                try Self.replaceAll(with: dataSet, in: connection)
                return dataSet.contentsInWords
            },
            demo: { DemoData.dataSet.encoded() })
    }
}

/// Reads the tables row by row, checking what this program could not have written.
struct RecordReader {
    let connection: SQLiteConnection
    let path: String

    func integer(_ value: SQLValue, _ table: String, _ row: Int, _ column: String) throws(ProfileError) -> Int64 {
        guard let integer = value.checkedInteger else { throw unreadable(table, row, column, value, "an integer") }
        return integer
    }

    func date(_ value: SQLValue, _ table: String, _ row: Int, _ column: String) throws(ProfileError) -> Date {
        guard case let seconds = value.real, seconds.isFinite, ProfileDataSet.storableDates.contains(seconds) else {
            throw unreadable(table, row, column, value, "a date between the years 1 and 9999")
        }
        return Date(timeIntervalSince1970: seconds)
    }

    func unreadable(_ table: String, _ row: Int, _ column: String, _ value: SQLValue, _ expected: String) -> ProfileError {
        .storage(
            "The database \(path.quoted) holds \(value.text ?? "NULL") in \(table), row \(row + 1) (ordered by id), column \(column), which must be \(expected); this program did not write it. Fix the row, or import a data set."
        )
    }

    func users(_ visit: (User) throws(ProfileError) -> Void) throws(ProfileError) {
        try connection.forEachRow("SELECT id, name, avatar_url, summary FROM users ORDER BY id") { row, _ throws(ProfileError) in
            try visit(SQLiteProfileStore.user(row[...]))
        }
    }

    func blogs(_ visit: (ProfileDataSet.BlogRecord) throws(ProfileError) -> Void) throws(ProfileError) {
        try connection.forEachRow("SELECT id, author, title, body, created_at FROM blogs ORDER BY id") { row, index throws(ProfileError) in
            try visit(
                ProfileDataSet.BlogRecord(
                    id: try integer(row[0], "blogs", index, "id"), author: UserID(row[1].text ?? ""), title: row[2].text ?? "",
                    body: row[3].text ?? "", createdAt: try date(row[4], "blogs", index, "created_at")))
        }
    }

    func likes(_ visit: (ProfileDataSet.LikeRecord) throws(ProfileError) -> Void) throws(ProfileError) {
        try connection.forEachRow("SELECT blog, user FROM likes ORDER BY blog, user") { row, index throws(ProfileError) in
            try visit(ProfileDataSet.LikeRecord(blog: try integer(row[0], "likes", index, "blog"), user: UserID(row[1].text ?? "")))
        }
    }

    func drafts(_ visit: (Draft) throws(ProfileError) -> Void) throws(ProfileError) {
        try connection.forEachRow("SELECT id, owner, title, body, edited_at, version FROM drafts ORDER BY id") { row, index throws(ProfileError) in
            try visit(
                Draft(
                    id: try integer(row[0], "drafts", index, "id"), owner: UserID(row[1].text ?? ""), title: row[2].text ?? "",
                    body: row[3].text ?? "", editedAt: try date(row[4], "drafts", index, "edited_at"),
                    version: Int(try integer(row[5], "drafts", index, "version"))))
        }
    }

    func follows(_ visit: (ProfileDataSet.FollowRecord) throws(ProfileError) -> Void) throws(ProfileError) {
        try connection.forEachRow("SELECT follower, followee FROM follows ORDER BY follower, followee") { row, _ throws(ProfileError) in
            try visit(ProfileDataSet.FollowRecord(follower: UserID(row[0].text ?? ""), followee: UserID(row[1].text ?? "")))
        }
    }

    func friendships(_ visit: (ProfileDataSet.FriendshipRecord) throws(ProfileError) -> Void) throws(ProfileError) {
        try connection.forEachRow("SELECT requester, addressee, status FROM friendships ORDER BY requester, addressee") { row, _ throws(ProfileError) in
            try visit(
                ProfileDataSet.FriendshipRecord(
                    requester: UserID(row[0].text ?? ""), addressee: UserID(row[1].text ?? ""),
                    status: ProfileDataSet.FriendshipRecord.Status(rawValue: row[2].text ?? "") ?? .pending))
        }
    }
}

/// Writes a pretty-printed, sorted-keys JSON object whose arrays arrive one element at a
/// time. Each element goes through the same `JSONEncoder` settings as
/// ``ProfileDataSet/encoded()``, so the text is the same.
struct StreamingJSONWriter {
    let write: (String) throws -> Void
    private let encoder = ProfileDataSet.encoder
    private var buffer = ""
    private var members = 0
    /// The first error of `write` or of encoding; reading stops soon after.
    var failure: (any Error)?

    init(write: @escaping (String) throws -> Void) {
        self.write = write
        buffer.reserveCapacity(1 << 16)
    }

    mutating func open() throws { buffer += "{\n" }

    mutating func close() throws {
        buffer += "\n}"
        try flush()
    }

    mutating func scalar(_ key: String, _ json: String) throws {
        startMember(key)
        buffer += json
        try flushIfFull()
    }

    /// Writes `"key" : [ … ]` with the elements `produce` hands over.
    mutating func array<Element: Encodable>(
        _ key: String, _ produce: ((Element) throws(ProfileError) -> Void) throws(ProfileError) -> Void
    ) throws {
        startMember(key)
        buffer += "["
        var count = 0
        try produce { element throws(ProfileError) in
            guard failure == nil else { return }
            do {
                buffer += count == 0 ? "\n" : ",\n"
                count += 1
                let text = String(decoding: try encoder.encode(element), as: UTF8.self)
                for (index, line) in text.split(separator: "\n", omittingEmptySubsequences: false).enumerated() {
                    buffer += index == 0 ? "    " : "\n    "
                    buffer += line
                }
                try flushIfFull()
            } catch {
                failure = error
            }
        }
        if let failure { throw failure }
        buffer += count == 0 ? "\n\n  ]" : "\n  ]"
    }

    private mutating func startMember(_ key: String) {
        buffer += members == 0 ? "  \"\(key)\" : " : ",\n  \"\(key)\" : "
        members += 1
    }

    private mutating func flushIfFull() throws {
        if buffer.utf8.count >= 1 << 16 { try flush() }
    }

    private mutating func flush() throws {
        guard !buffer.isEmpty else { return }
        try write(buffer)
        buffer.removeAll(keepingCapacity: true)
    }
}

extension SQLiteProfileStore {
    /// Adds `count` generated blogs by `author`, newest first an hour apart before the
    /// author's newest, in one transaction: long lists to try (a profile with 10,000 blogs).
    ///
    /// - Returns: The ids of the new blogs.
    /// - Throws: `ProfileError/userNotFound(_:)` for an unknown author; nothing is added then.
    @discardableResult
    public func addGeneratedBlogs(count: Int, author: UserID) throws(ProfileError) -> ClosedRange<Int64> {
        precondition(count >= 1, "count must be at least 1")
        return try withConnection { connection throws(ProfileError) in
            try Self.requireUser(author, in: connection)
            return try committing([.blogs(of: author), .profile(author)], in: connection) { () throws(ProfileError) in
                let firstID = (try connection.query("SELECT COALESCE(MAX(id), 0) FROM blogs").first?.first?.checkedInteger ?? 0) + 1
                let newest =
                    try connection.query("SELECT MAX(created_at) FROM blogs WHERE author = ?", [SQLValue(author)]).first?.first?.real
                    ?? 1_767_258_000  // 2026-01-01 09:00 UTC
                let start = newest.isFinite ? newest : 1_767_258_000
                for offset in 0..<Int64(count) {
                    let blog = ProfileDataSet.BlogRecord(
                        id: firstID + offset, author: author, title: "Generated post \(offset + 1)",
                        body: "A generated blog, number \(offset + 1) of \(count), to try long lists.",
                        createdAt: Date(timeIntervalSince1970: start - Double(offset + 1) * 3_600))
                    try Self.insert(blog, in: connection)
                }
                return firstID...(firstID + Int64(count) - 1)
            }
        }
    }
}
