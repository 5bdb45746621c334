import Foundation
import ProfileDemoDomain
import Scenery
import SceneryExperiments
import SceneryLive
import ScenerySiteStore

/// The embedded profile backend: a SQLite database with migrations, seeded with demo
/// data on first use. It provides all four profile services.
///
/// ```swift
/// let store = try SQLiteProfileStore(path: "demo.sqlite")      // created and seeded if new
/// let services = ProfileServices(store)
/// let test = try SQLiteProfileStore.inMemory()                   // a private database for tests
/// ```
///
/// Writes (likes, follows, friendships, imports) run in transactions: they happen whole or
/// not at all. One connection serves all calls, one at a time.
public final class SQLiteProfileStore: Sendable {
    /// The site store the profile tables live on: the connection, the change feed, the
    /// action ledger, experiments' records, and the tables of the app's other parts.
    public let site: SQLiteSiteStore
    /// The site store's feed of profile changes.
    let feed: SiteChangeFeed<ProfileChange>
    /// Blogs as each viewer sees them, read once while the database does not change: a
    /// like reaching every open page of a blog costs a read per kind of viewer, not per page.
    let blogAnswers = SharedAnswers<BlogQuestion, Blog?>()

    struct BlogQuestion: Hashable, Sendable {
        var blog: BlogID
        var viewer: UserID?
    }
    /// The database file, or `:memory:`.
    public var path: String { site.path }

    /// Opens the database at `path`, creating its file if needed (and its directory when
    /// `createsDirectory` is true), applying migrations, and seeding the demo data into a
    /// new database when `seedDemoData` is true.
    ///
    /// A database whose file (or folder) this process cannot write is opened for reading:
    /// everything that only reads works, and a write fails with an error that says the
    /// database is read-only (see ``isReadOnly``). Pass `requiresWriting` to fail at once
    /// instead, for work that is nothing but writes (an import).
    ///
    /// While another process holds a lock on the database, opening waits up to
    /// `lockTimeout`, calling `whileLocked` once when it starts waiting (a command prints a
    /// notice there), then fails with a message that names the database and what to do.
    ///
    /// `parts` are the tables other parts of the app keep in the same database (a
    /// guestbook beside the profile): they are brought up to date after the profile's, in
    /// the same transaction, and reached through ``site``.
    ///
    /// - Throws: `ProfileError/storage(_:)` if it cannot be opened or migrated (naming the
    ///   part whose step failed), two parts have one name, its directory does not exist and
    ///   `createsDirectory` is false, it stays locked, or it is read-only and
    ///   `requiresWriting` is true (or it would need changes to be read).
    public init(
        path: String, seedDemoData: Bool = true, parts: [SiteSchema] = [], createsDirectory: Bool = false, requiresWriting: Bool = false,
        lockTimeout: Duration = .seconds(30), whileLocked: () -> Void = {}
    ) throws(ProfileError) {
        site = try SQLiteSiteStore(
            path: path, schemas: [Migrations.schema(seeding: seedDemoData)] + parts, createsDirectory: createsDirectory,
            requiresWriting: requiresWriting,
            lockTimeout: lockTimeout, whileLocked: whileLocked)
        feed = site.feed(of: ProfileChange.self)
    }

    /// Whether the database is open for reading only: its file or folder cannot be written
    /// by this process. Reads work; a write throws `ProfileError/storage(_:)` saying so.
    public var isReadOnly: Bool { site.isReadOnly }

    /// A private in-memory database, for tests.
    public static func inMemory(seedDemoData: Bool = true) throws(ProfileError) -> SQLiteProfileStore {
        try SQLiteProfileStore(path: ":memory:", seedDemoData: seedDemoData)
    }

    /// Runs `body` with the connection, one caller at a time.
    func withConnection<T>(_ body: (SQLiteConnection) throws(ProfileError) -> T) throws(ProfileError) -> T {
        try site.withConnection(body)
    }

    /// Runs `body` with the connection on the store's own thread, one caller at a time,
    /// while the calling task waits holding no thread of Swift's pool.
    func withConnection<T: Sendable>(_ body: @Sendable (SQLiteConnection) throws(ProfileError) -> T) async throws(ProfileError) -> T {
        try await site.withConnection(body)
    }
}

// MARK: - Rows

extension SQLiteProfileStore {
    static func date(_ value: SQLValue) -> Date { Date(timeIntervalSince1970: value.real) }

    static func user(_ row: ArraySlice<SQLValue>) -> User {
        let values = Array(row)
        return User(id: UserID(values[0].text ?? ""), name: values[1].text ?? "", avatarURL: values[2].text, summary: values[3].text ?? "")
    }

    static func requireUser(_ id: UserID, in connection: SQLiteConnection) throws(ProfileError) {
        guard try !connection.query("SELECT 1 FROM users WHERE id = ?", [SQLValue(id)]).isEmpty else {
            throw .userNotFound(id)
        }
    }
}

extension SQLiteProfileStore: ProfileDatabase {
    public var backingSiteStore: any SiteStore { site }

    /// Every user, by id (numeric ids in numeric order), at most `limit`: for sign-in pages.
    public func allUsers(limit: Int = 100) throws(ProfileError) -> [User] {
        try withConnection { connection throws(ProfileError) in
            try connection.query(
                "SELECT id, name, avatar_url, summary FROM users ORDER BY length(id), id LIMIT ?", [SQLValue(Int64(limit))]
            ).map { Self.user($0[...]) }
        }
    }
}

// MARK: - ProfileService

extension SQLiteProfileStore: ProfileService {
    public func profile(of user: UserID, viewer: UserID?) async throws -> UserProfile {
        try await withConnection { connection throws(ProfileError) in
            guard let row = try connection.query("SELECT id, name, avatar_url, summary FROM users WHERE id = ?", [SQLValue(user)]).first
            else { throw .userNotFound(user) }
            let id = SQLValue(user)
            let counts = try connection.query(
                """
                SELECT
                  (SELECT COUNT(*) FROM blogs WHERE author = ?1),
                  (SELECT COUNT(*) FROM friendships WHERE status = 'accepted' AND (requester = ?1 OR addressee = ?1)),
                  (SELECT COUNT(*) FROM follows WHERE followee = ?1),
                  (SELECT COUNT(*) FROM follows WHERE follower = ?1),
                  (SELECT COUNT(*) FROM follows WHERE follower = ?2 AND followee = ?1)
                """, [id, SQLValue(viewer)])[0]
            let follows: Bool? = viewer == nil || viewer == user ? nil : counts[4].integer > 0
            return UserProfile(
                user: Self.user(row[...]), blogCount: Int(counts[0].integer), friendCount: Int(counts[1].integer),
                followerCount: Int(counts[2].integer), followingCount: Int(counts[3].integer), viewerFollows: follows)
        }
    }

    public func setSummary(_ summary: String, of user: UserID, by editor: UserID) async throws {
        if let problem = Self.problem(setting: summary, of: user, by: editor) { throw problem }
        try await withConnection { connection throws(ProfileError) in
            try committing([.profile(user)], in: connection) { () throws(ProfileError) in
                try Self.requireUser(user, in: connection)
                try connection.run("UPDATE users SET summary = ? WHERE id = ?", [SQLValue(summary), SQLValue(user)])
            }
        }
    }
}

// MARK: - BlogService

extension SQLiteProfileStore: BlogService {
    private static let blogColumns = """
        SELECT b.id, b.author, u.name, b.title, b.body, b.created_at,
               (SELECT COUNT(*) FROM likes l WHERE l.blog = b.id),
               EXISTS (SELECT 1 FROM likes l WHERE l.blog = b.id AND l.user = ?)
        FROM blogs b JOIN users u ON u.id = b.author
        """

    private static func blog(_ row: [SQLValue]) -> Blog {
        Blog(
            id: BlogID(row[0].integer), author: UserID(row[1].text ?? ""), authorName: row[2].text ?? "", title: row[3].text ?? "",
            body: row[4].text ?? "", likes: Int(row[6].integer), createdAt: date(row[5]), likedByViewer: row[7].integer != 0)
    }

    public func blogs(by author: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<Blog> {
        try await withConnection { connection throws(ProfileError) in
            try Self.requireUser(author, in: connection)
            let rows: [[SQLValue]]
            if let after = page.after?.blogPosition {
                // Keyset: the blogs after that one, however many were added before it.
                rows = try connection.query(
                    "\(Self.blogColumns) WHERE b.author = ? AND (b.created_at < ? OR (b.created_at = ? AND b.id < ?)) ORDER BY b.created_at DESC, b.id DESC LIMIT ?",
                    [SQLValue(viewer), SQLValue(author), .real(after.createdAt), .real(after.createdAt), SQLValue(after.id), SQLValue(page.limit + 1)])
            } else {
                rows = try connection.query(
                    "\(Self.blogColumns) WHERE b.author = ? ORDER BY b.created_at DESC, b.id DESC LIMIT ? OFFSET ?",
                    [SQLValue(viewer), SQLValue(author), SQLValue(page.limit + 1), SQLValue(page.offset)])
            }
            let total = try connection.query("SELECT COUNT(*) FROM blogs WHERE author = ?", [SQLValue(author)])[0][0].integer
            return Page(items: rows.prefix(page.limit).map(Self.blog), hasMore: rows.count > page.limit, total: Int(total))
        }
    }

    public func blog(_ id: BlogID, viewer: UserID?) async throws -> Blog {
        let blog = try await blogAnswers.answer(to: BlogQuestion(blog: id, viewer: viewer), from: site) { connection throws(DataError) in
            try connection.query("\(Self.blogColumns) WHERE b.id = ?", [SQLValue(viewer), SQLValue(id)]).first.map(Self.blog)
        }
        guard let blog else { throw ProfileError.blogNotFound(id) }
        return blog
    }

    public func setLiked(_ liked: Bool, blog: BlogID, by user: UserID) async throws -> Int {
        try await withConnection { connection throws(ProfileError) in
            try committing([.blog(blog)], in: connection) { () throws(ProfileError) -> Int in
                guard try !connection.query("SELECT 1 FROM blogs WHERE id = ?", [SQLValue(blog)]).isEmpty else {
                    throw .blogNotFound(blog)
                }
                try Self.requireUser(user, in: connection)
                if liked {
                    try connection.run("INSERT OR IGNORE INTO likes (blog, user) VALUES (?, ?)", [SQLValue(blog), SQLValue(user)])
                } else {
                    try connection.run("DELETE FROM likes WHERE blog = ? AND user = ?", [SQLValue(blog), SQLValue(user)])
                }
                return Int(try connection.query("SELECT COUNT(*) FROM likes WHERE blog = ?", [SQLValue(blog)])[0][0].integer)
            }
        }
    }
}

// MARK: - RelationshipService

extension SQLiteProfileStore: RelationshipService {
    public func users(_ list: UserListKind, of user: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<UserListEntry> {
        try await withConnection { connection throws(ProfileError) in
            try Self.requireUser(user, in: connection)
            // Keyset when the request names the last user shown (by name, then id).
            let after = page.after?.userPosition
            let members: String =
                switch list {
                case .followers: "SELECT follower FROM follows WHERE followee = ?1"
                case .following: "SELECT followee FROM follows WHERE follower = ?1"
                case .friends:
                    // Requests to the user are part of their own list only (?1 = ?2).
                    """
                    SELECT addressee FROM friendships WHERE requester = ?1 AND status = 'accepted'
                    UNION SELECT requester FROM friendships WHERE addressee = ?1 AND status = 'accepted'
                    UNION SELECT requester FROM friendships WHERE addressee = ?1 AND status = 'pending' AND ?1 = ?2
                    """
                }
            let rows = try connection.query(
                """
                SELECT u.id, u.name, u.avatar_url, u.summary,
                       EXISTS (SELECT 1 FROM follows WHERE follower = ?2 AND followee = u.id),
                       (SELECT status FROM friendships WHERE requester = ?2 AND addressee = u.id),
                       (SELECT status FROM friendships WHERE requester = u.id AND addressee = ?2)
                FROM users u WHERE u.id IN (\(members))
                  AND (?5 IS NULL OR u.name > ?5 COLLATE NOCASE OR (u.name = ?5 COLLATE NOCASE AND u.id > ?6))
                ORDER BY u.name COLLATE NOCASE, u.id LIMIT ?3 OFFSET ?4
                """,
                [
                    SQLValue(user), SQLValue(viewer), SQLValue(page.limit + 1), SQLValue(after == nil ? page.offset : 0), SQLValue(after?.name),
                    SQLValue(after?.id),
                ])
            let entries = rows.prefix(page.limit).map { row in
                UserListEntry(
                    user: Self.user(row[0..<4]), viewerFollows: row[4].integer != 0,
                    friendState: Self.friendState(outgoing: row[5].text, incoming: row[6].text))
            }
            return Page(items: entries, hasMore: rows.count > page.limit)
        }
    }

    /// The viewer's friend state from the `friendships` rows each way (their `status`, or
    /// `nil`): shared by every store, whose tables are the same.
    package static func friendState(outgoing: String?, incoming: String?) -> FriendState {
        if outgoing == "accepted" || incoming == "accepted" { return .friends }
        if outgoing == "pending" { return .requested }
        if incoming == "pending" { return .incoming }
        return .none
    }

    public func setFollowing(_ following: Bool, follower: UserID, followee: UserID) async throws {
        guard follower != followee else { throw ProfileError.notPermitted("You cannot follow yourself.") }
        let changes: [ProfileChange] = [.profile(follower), .profile(followee), .relationships(of: follower), .relationships(of: followee)]
        try await withConnection { connection throws(ProfileError) in
            try committing(changes, in: connection) { () throws(ProfileError) in
                try Self.requireUser(follower, in: connection)
                try Self.requireUser(followee, in: connection)
                if following {
                    try connection.run("INSERT OR IGNORE INTO follows (follower, followee) VALUES (?, ?)", [SQLValue(follower), SQLValue(followee)])
                } else {
                    try connection.run("DELETE FROM follows WHERE follower = ? AND followee = ?", [SQLValue(follower), SQLValue(followee)])
                }
            }
        }
    }

    public func changeFriendship(_ change: FriendshipChange, from user: UserID, with other: UserID) async throws -> FriendState {
        guard user != other else { throw ProfileError.notPermitted("You cannot befriend yourself.") }
        let changes: [ProfileChange] = [.profile(user), .profile(other), .relationships(of: user), .relationships(of: other)]
        return try await withConnection { connection throws(ProfileError) in
            try committing(changes, in: connection) { () throws(ProfileError) -> FriendState in
                try Self.requireUser(user, in: connection)
                try Self.requireUser(other, in: connection)
                let (a, b) = (SQLValue(user), SQLValue(other))
                let outgoing = try connection.query("SELECT status FROM friendships WHERE requester = ? AND addressee = ?", [a, b]).first?[0].text
                let incoming = try connection.query("SELECT status FROM friendships WHERE requester = ? AND addressee = ?", [b, a]).first?[0].text
                let state = Self.friendState(outgoing: outgoing, incoming: incoming)
                switch (change, state) {
                case (.request, .none):
                    try connection.run("INSERT INTO friendships (requester, addressee, status) VALUES (?, ?, 'pending')", [a, b])
                    return .requested
                case (.request, .incoming), (.accept, .incoming):
                    try connection.run("UPDATE friendships SET status = 'accepted' WHERE requester = ? AND addressee = ?", [b, a])
                    return .friends
                case (.request, _):
                    return state
                case (.accept, _):
                    throw .notPermitted("There is no friend request from \(other.rawValue.quoted) to accept.")
                case (.remove, _):
                    try connection.run(
                        "DELETE FROM friendships WHERE (requester = ?1 AND addressee = ?2) OR (requester = ?2 AND addressee = ?1)", [a, b])
                    return .none
                }
            }
        }
    }
}
