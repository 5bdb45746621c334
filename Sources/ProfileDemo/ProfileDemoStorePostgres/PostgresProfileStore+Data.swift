import Foundation
import Logging
import PostgresNIO
import ProfileDemoDomain
import ProfileDemoStore
import Scenery
import SceneryExperiments
import ScenerySiteStorePostgres

// The whole data set (export, import, generated blogs) and the experiments' records.

extension PostgresProfileStore {
    public func exportData() async throws(ProfileError) -> ProfileDataSet {
        try await reading("export the data") { connection, logger in
            // One snapshot of every table.
            try await connection.query("BEGIN ISOLATION LEVEL REPEATABLE READ READ ONLY", logger: logger)
            do {
                let dataSet = try await Self.readDataSet(on: connection, logger: logger)
                try await connection.query("COMMIT", logger: logger)
                return dataSet
            } catch {
                await Self.rollBack(connection, logger: logger)
                throw error
            }
        }
    }

    /// Every row of the profile's tables, read on `connection` (in the caller's snapshot).
    static func readDataSet(on connection: PostgresConnection, logger: Logger) async throws -> ProfileDataSet {
        var dataSet = ProfileDataSet(users: [])
        dataSet.users = try await connection.query("SELECT id, name, avatar_url, summary FROM users ORDER BY id COLLATE \"C\"", logger: logger)
            .collect().map(Self.user)
        dataSet.blogs = try await connection.query("SELECT id, author, title, body, created_at FROM blogs ORDER BY id", logger: logger)
            .collect().map { row in
                let (id, author, title, body, created) = try row.decode((Int64, String, String, String, Double).self)
                return ProfileDataSet.BlogRecord(
                    id: id, author: UserID(author), title: title, body: body, createdAt: Date(timeIntervalSince1970: created))
            }
        dataSet.likes = try await connection.query("SELECT blog, user_id FROM likes ORDER BY blog, user_id COLLATE \"C\"", logger: logger)
            .collect().map { row in
                let (blog, user) = try row.decode((Int64, String).self)
                return ProfileDataSet.LikeRecord(blog: blog, user: UserID(user))
            }
        dataSet.drafts = try await connection.query("SELECT id, owner, title, body, edited_at, version FROM drafts ORDER BY id", logger: logger)
            .collect().map(Self.draft)
        dataSet.follows = try await connection.query(
            "SELECT follower, followee FROM follows ORDER BY follower COLLATE \"C\", followee COLLATE \"C\"", logger: logger
        ).collect().map { row in
            let (follower, followee) = try row.decode((String, String).self)
            return ProfileDataSet.FollowRecord(follower: UserID(follower), followee: UserID(followee))
        }
        dataSet.friendships = try await connection.query(
            "SELECT requester, addressee, status FROM friendships ORDER BY requester COLLATE \"C\", addressee COLLATE \"C\"", logger: logger
        ).collect().map { row in
            let (requester, addressee, status) = try row.decode((String, String, String).self)
            return ProfileDataSet.FriendshipRecord(
                requester: UserID(requester), addressee: UserID(addressee),
                status: ProfileDataSet.FriendshipRecord.Status(rawValue: status) ?? .pending)
        }
        return dataSet
    }

    /// Writes the data set as JSON: the text of `exportData().encoded()`, in chunks of
    /// about 64 KB. The data set is read whole first.
    public func exportJSON(to write: (String) throws -> Void) async throws {
        let text = String(decoding: try await exportData().encoded(), as: UTF8.self)
        var start = text.startIndex
        while start < text.endIndex {
            let end = text.index(start, offsetBy: 1 << 16, limitedBy: text.endIndex) ?? text.endIndex
            try write(String(text[start..<end]))
            start = end
        }
    }

    /// Replaces everything in the database with `dataSet`, in one transaction.
    ///
    /// - Throws: `ProfileError.invalidData` listing every problem of the data set, and
    ///   text with a NUL character, which PostgreSQL cannot store (SQLite can); nothing is
    ///   changed then.
    public func importData(_ dataSet: ProfileDataSet) async throws(ProfileError) {
        try Self.requireStorable(dataSet)
        try await writing("import the data", announcing: [.everything]) { connection, logger in
            try await Self.replaceAll(with: dataSet, on: connection, logger: logger)
        }
    }

    /// Refuses a data set with problems, or with text PostgreSQL cannot store (a NUL
    /// character): `invalidData` listing every one.
    static func requireStorable(_ dataSet: ProfileDataSet) throws(ProfileError) {
        let problems = dataSet.problems + unstorableText(in: dataSet)
        guard problems.isEmpty else { throw .invalidData(problems) }
    }

    /// Replaces every row with the data set's, inside the caller's transaction.
    static func replaceAll(with dataSet: ProfileDataSet, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query("TRUNCATE likes, friendships, follows, drafts, blogs, users", logger: logger)
        try await insertAll(dataSet, on: connection, logger: logger)
    }

    /// The profile's data as a part of the database's data: what `data export` writes, and
    /// `data import` and `reset` replace, with the data of the app's other parts
    /// (`ModuleCatalog.addingData(_:)`), in one file and one transaction. Its section is a
    /// profile data file (`ProfileDataSet`); a file without one empties the profile.
    public var partData: any PartData { dataSet }

    public var dataSet: PostgresDataSet {
        PostgresDataSet(
            app: ProfileChange.app,
            export: { connection, logger in try await Self.readDataSet(on: connection, logger: logger).encoded() },
            replace: { section, connection, logger in
                let dataSet = try section.map(ProfileDataSet.decode) ?? ProfileDataSet(users: [])
                try Self.requireStorable(dataSet)
                try await Self.replaceAll(with: dataSet, on: connection, logger: logger)
                return dataSet.contentsInWords
            },
            demo: { DemoData.dataSet.encoded() })
    }

    /// The places of text with a NUL character, which a PostgreSQL `text` cannot hold.
    static func unstorableText(in dataSet: ProfileDataSet) -> [DataProblem] {
        var problems: [DataProblem] = []
        func check(_ text: String?, _ path: String) {
            guard let text, text.utf8.contains(0) else { return }
            problems.append(DataProblem(path: path, message: "contains a NUL character (\\u0000), which PostgreSQL cannot store; remove it."))
        }
        for (index, user) in dataSet.users.enumerated() {
            check(user.id.rawValue, "users[\(index)].id")
            check(user.name, "users[\(index)].name")
            check(user.avatarURL, "users[\(index)].avatarURL")
            check(user.summary, "users[\(index)].summary")
        }
        for (index, blog) in dataSet.blogs.enumerated() {
            check(blog.title, "blogs[\(index)].title")
            check(blog.body, "blogs[\(index)].body")
        }
        for (index, draft) in dataSet.drafts.enumerated() {
            check(draft.title, "drafts[\(index)].title")
            check(draft.body, "drafts[\(index)].body")
        }
        return problems
    }

    /// Inserts a checked data set into empty tables, inside the caller's transaction.
    static func insertAll(_ dataSet: ProfileDataSet, on connection: PostgresConnection, logger: Logger) async throws {
        for user in dataSet.users {
            try await connection.query(
                "INSERT INTO users (id, name, avatar_url, summary) VALUES (\(user.id.rawValue), \(user.name), \(user.avatarURL), \(user.summary))",
                logger: logger)
        }
        for blog in dataSet.blogs { try await insert(blog, on: connection, logger: logger) }
        for like in dataSet.likes {
            try await connection.query("INSERT INTO likes (blog, user_id) VALUES (\(like.blog), \(like.user.rawValue))", logger: logger)
        }
        for draft in dataSet.drafts {
            try await connection.query(
                """
                INSERT INTO drafts (id, owner, title, body, edited_at, version)
                VALUES (\(draft.id), \(draft.owner.rawValue), \(draft.title), \(draft.body), \(draft.editedAt.timeIntervalSince1970), \(Int64(draft.version)))
                """, logger: logger)
        }
        for follow in dataSet.follows {
            try await connection.query(
                "INSERT INTO follows (follower, followee) VALUES (\(follow.follower.rawValue), \(follow.followee.rawValue))", logger: logger)
        }
        for friendship in dataSet.friendships {
            try await connection.query(
                """
                INSERT INTO friendships (requester, addressee, status)
                VALUES (\(friendship.requester.rawValue), \(friendship.addressee.rawValue), \(friendship.status.rawValue))
                """, logger: logger)
        }
    }

    static func insert(_ blog: ProfileDataSet.BlogRecord, on connection: PostgresConnection, logger: Logger) async throws {
        try await connection.query(
            """
            INSERT INTO blogs (id, author, title, body, created_at)
            VALUES (\(blog.id), \(blog.author.rawValue), \(blog.title), \(blog.body), \(blog.createdAt.timeIntervalSince1970))
            """, logger: logger)
    }

    @discardableResult
    public func addGeneratedBlogs(count: Int, author: UserID) async throws(ProfileError) -> ClosedRange<Int64> {
        precondition(count >= 1, "count must be at least 1")
        return try await writing("add generated blogs", announcing: [.blogs(of: author), .profile(author)]) { connection, logger in
            try await Self.requireUser(author, on: connection, logger: logger)
            let firstID = try await connection.query("SELECT COALESCE(MAX(id), 0) + 1 FROM blogs", logger: logger).collect()[0].decode(Int64.self)
            let newest =
                try await connection.query("SELECT MAX(created_at) FROM blogs WHERE author = \(author.rawValue)", logger: logger).collect()[0]
                .decode(Double?.self) ?? 1_767_258_000  // 2026-01-01 09:00 UTC
            // In batches of one statement each, from generate_series.
            let start = newest.isFinite ? newest : 1_767_258_000
            try await connection.query(
                """
                INSERT INTO blogs (id, author, title, body, created_at)
                SELECT \(firstID) + n - 1, \(author.rawValue), 'Generated post ' || n,
                       'A generated blog, number ' || n || ' of ' || \(Int64(count)) || ', to try long lists.',
                       \(start) - n * 3600.0
                FROM generate_series(1, \(Int64(count))) AS n
                """, logger: logger)
            return firstID...(firstID + Int64(count) - 1)
        }
    }
}
