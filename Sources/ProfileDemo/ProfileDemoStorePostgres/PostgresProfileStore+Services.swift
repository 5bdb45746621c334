import Foundation
import PostgresNIO
import ProfileDemoDomain
import ProfileDemoStore
import Scenery

// The four profile services, with the same answers as the SQLite store's (the conformance
// suite runs both). Text is compared and ordered byte by byte (COLLATE "C"), as SQLite does.

extension PostgresProfileStore {
    static let userColumns = "id, name, avatar_url, summary"

    static func user(_ row: PostgresRow) throws -> User {
        let (id, name, avatar, summary) = try row.decode((String, String, String?, String).self)
        return User(id: UserID(id), name: name, avatarURL: avatar, summary: summary)
    }

    static func requireUser(_ id: UserID, on connection: PostgresConnection, logger: Logger) async throws {
        guard try await connection.query("SELECT 1 FROM users WHERE id = \(id.rawValue)", logger: logger).collect().isEmpty == false else {
            throw ProfileError.userNotFound(id)
        }
    }

    public func allUsers(limit: Int = 100) async throws(ProfileError) -> [User] {
        try await reading("list the users") { connection, logger in
            try await connection.query(
                "SELECT id, name, avatar_url, summary FROM users ORDER BY length(id), id COLLATE \"C\" LIMIT \(Int64(max(0, limit)))", logger: logger
            ).collect().map(Self.user)
        }
    }
}

// MARK: - ProfileService

extension PostgresProfileStore {  // ProfileService
    public func profile(of user: UserID, viewer: UserID?) async throws -> UserProfile {
        try await shared(profileReads, .profile(user, viewer: viewer)) { try await self.readProfile(of: user, viewer: viewer) }
    }

    public func setSummary(_ summary: String, of user: UserID, by editor: UserID) async throws {
        if let problem = Self.problem(setting: summary, of: user, by: editor) { throw problem }
        try await writing("change a summary", announcing: [.profile(user)]) { connection, logger in
            try await Self.requireUser(user, on: connection, logger: logger)
            try await connection.query("UPDATE users SET summary = \(summary) WHERE id = \(user.rawValue)", logger: logger)
        }
    }

    /// One statement, so the user's row and its counts come from one snapshot (two
    /// statements could disagree under writes).
    private func readProfile(of user: UserID, viewer: UserID?) async throws -> UserProfile {
        try await reading("read a profile") { connection, logger in
            let id = user.rawValue
            guard
                let row = try await connection.query(
                    """
                    SELECT u.id, u.name, u.avatar_url, u.summary,
                      (SELECT COUNT(*) FROM blogs WHERE author = u.id),
                      (SELECT COUNT(*) FROM friendships WHERE status = 'accepted' AND (requester = u.id OR addressee = u.id)),
                      (SELECT COUNT(*) FROM follows WHERE followee = u.id),
                      (SELECT COUNT(*) FROM follows WHERE follower = u.id),
                      (SELECT COUNT(*) FROM follows WHERE follower = \(viewer?.rawValue) AND followee = u.id)
                    FROM users u WHERE u.id = \(id)
                    """, logger: logger
                ).collect().first
            else { throw ProfileError.userNotFound(user) }
            let (userID, name, avatar, summary, blogs, friends, followers, following, viewerFollows) = try row.decode(
                (String, String, String?, String, Int64, Int64, Int64, Int64, Int64).self)
            let follows: Bool? = viewer == nil || viewer == user ? nil : viewerFollows > 0
            return UserProfile(
                user: User(id: UserID(userID), name: name, avatarURL: avatar, summary: summary), blogCount: Int(blogs), friendCount: Int(friends),
                followerCount: Int(followers), followingCount: Int(following), viewerFollows: follows)
        }
    }
}

// MARK: - BlogService

extension PostgresProfileStore {  // BlogService
    /// The tables a blog's row comes from (see ``blog(_:)`` for its columns).
    static let blogFrom = "FROM blogs b JOIN users u ON u.id = b.author"

    static func blog(_ row: PostgresRow) throws -> Blog {
        let (id, author, authorName, title, body, created, likes, liked) = try row.decode(
            (Int64, String, String, String, String, Double, Int64, Bool).self)
        return Blog(
            id: BlogID(id), author: UserID(author), authorName: authorName, title: title, body: body, likes: Int(likes),
            createdAt: Date(timeIntervalSince1970: created), likedByViewer: liked)
    }

    public func blogs(by author: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<Blog> {
        try await shared(blogPageReads, .blogs(by: author, viewer: viewer, page: page)) {
            try await self.readBlogs(by: author, viewer: viewer, page: page)
        }
    }

    /// One statement, so whether the author exists, how many blogs they have and the page
    /// of blogs come from one snapshot: the count and the rows agree under writes.
    private func readBlogs(by author: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<Blog> {
        try await reading("read blogs") { connection, logger in
            // Keyset when the request names the last blog shown: the blogs after it, however
            // many were added before it meanwhile (an offset would repeat rows).
            let after = page.after?.blogPosition
            let rows = try await connection.query(
                """
                SELECT head.author_exists, head.total, p.*
                FROM (SELECT EXISTS (SELECT 1 FROM users WHERE id = \(author.rawValue)) AS author_exists,
                             (SELECT COUNT(*) FROM blogs WHERE author = \(author.rawValue)) AS total) head
                LEFT JOIN LATERAL (
                  SELECT b.id, b.author, u.name, b.title, b.body, b.created_at,
                         (SELECT COUNT(*) FROM likes l WHERE l.blog = b.id) AS likes,
                         EXISTS (SELECT 1 FROM likes l WHERE l.blog = b.id AND l.user_id = \(viewer?.rawValue)) AS liked
                  \(unescaped: Self.blogFrom) WHERE b.author = \(author.rawValue)
                    AND (\(after == nil) OR (b.created_at, b.id) < (\(after?.createdAt ?? 0), \(after?.id.rawValue ?? 0)))
                  ORDER BY b.created_at DESC, b.id DESC LIMIT \(Int64(page.limit + 1)) OFFSET \(Int64(after == nil ? page.offset : 0))
                ) p ON true
                ORDER BY p.created_at DESC, p.id DESC
                """, logger: logger
            ).collect()
            let decoded = try rows.map { try $0.decode((Bool, Int64, Int64?, String?, String?, String?, String?, Double?, Int64?, Bool?).self) }
            guard let first = decoded.first, first.0 else { throw ProfileError.userNotFound(author) }
            let total = first.1
            let blogs = decoded.compactMap { row -> Blog? in
                let (_, _, id, blogAuthor, authorName, title, body, created, likes, liked) = row
                guard let id, let blogAuthor, let authorName, let title, let body, let created, let likes, let liked else { return nil }
                return Blog(
                    id: BlogID(id), author: UserID(blogAuthor), authorName: authorName, title: title, body: body, likes: Int(likes),
                    createdAt: Date(timeIntervalSince1970: created), likedByViewer: liked)
            }
            return Page(items: Array(blogs.prefix(page.limit)), hasMore: blogs.count > page.limit, total: Int(total))
        }
    }

    public func blog(_ id: BlogID, viewer: UserID?) async throws -> Blog {
        try await shared(blogReads, .blog(id, viewer: viewer)) { try await self.readBlog(id, viewer: viewer) }
    }

    private func readBlog(_ id: BlogID, viewer: UserID?) async throws -> Blog {
        try await reading("read a blog") { connection, logger in
            let rows = try await connection.query(
                """
                SELECT b.id, b.author, u.name, b.title, b.body, b.created_at,
                       (SELECT COUNT(*) FROM likes l WHERE l.blog = b.id),
                       EXISTS (SELECT 1 FROM likes l WHERE l.blog = b.id AND l.user_id = \(viewer?.rawValue))
                \(unescaped: Self.blogFrom) WHERE b.id = \(id.rawValue)
                """, logger: logger
            ).collect()
            guard let row = rows.first else { throw ProfileError.blogNotFound(id) }
            return try Self.blog(row)
        }
    }

    public func setLiked(_ liked: Bool, blog: BlogID, by user: UserID) async throws -> Int {
        try await writing("record a like", announcing: [.blog(blog)]) { connection, logger in
            guard try await !connection.query("SELECT 1 FROM blogs WHERE id = \(blog.rawValue)", logger: logger).collect().isEmpty else {
                throw ProfileError.blogNotFound(blog)
            }
            try await Self.requireUser(user, on: connection, logger: logger)
            if liked {
                try await connection.query(
                    "INSERT INTO likes (blog, user_id) VALUES (\(blog.rawValue), \(user.rawValue)) ON CONFLICT DO NOTHING", logger: logger)
            } else {
                try await connection.query("DELETE FROM likes WHERE blog = \(blog.rawValue) AND user_id = \(user.rawValue)", logger: logger)
            }
            return Int(try await connection.query("SELECT COUNT(*) FROM likes WHERE blog = \(blog.rawValue)", logger: logger).collect()[0].decode(Int64.self))
        }
    }
}

// MARK: - RelationshipService

extension PostgresProfileStore {  // RelationshipService
    public func users(_ list: UserListKind, of user: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<UserListEntry> {
        try await shared(userListReads, .users(list, of: user, viewer: viewer, page: page)) {
            try await self.readUsers(list, of: user, viewer: viewer, page: page)
        }
    }

    private func readUsers(_ list: UserListKind, of user: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<UserListEntry> {
        try await reading("read a list of users") { connection, logger in
            try await Self.requireUser(user, on: connection, logger: logger)
            // Keyset when the request names the last user shown (by name, then id).
            let after = page.after?.userPosition
            // The user and the viewer as the row `p`, so the member lists can be fixed text.
            let members =
                switch list {
                case .followers: "SELECT follower FROM follows WHERE followee = p.id"
                case .following: "SELECT followee FROM follows WHERE follower = p.id"
                case .friends:
                    // Requests to the user are part of their own list only.
                    """
                    SELECT addressee FROM friendships WHERE requester = p.id AND status = 'accepted'
                    UNION SELECT requester FROM friendships WHERE addressee = p.id AND status = 'accepted'
                    UNION SELECT requester FROM friendships WHERE addressee = p.id AND status = 'pending' AND p.id = p.viewer
                    """
                }
            let query: PostgresQuery = """
                WITH p AS (SELECT \(user.rawValue)::text AS id, \(viewer?.rawValue)::text AS viewer)
                SELECT u.id, u.name, u.avatar_url, u.summary,
                       EXISTS (SELECT 1 FROM follows WHERE follower = p.viewer AND followee = u.id),
                       (SELECT status FROM friendships WHERE requester = p.viewer AND addressee = u.id),
                       (SELECT status FROM friendships WHERE requester = u.id AND addressee = p.viewer)
                FROM users u, p WHERE u.id IN (\(unescaped: members))
                  AND (\(after == nil) OR (lower(u.name COLLATE "C"), u.id COLLATE "C")
                    > (lower(\(after?.name ?? "")::text COLLATE "C"), \(after?.id.rawValue ?? "")::text COLLATE "C"))
                ORDER BY lower(u.name COLLATE "C"), u.id COLLATE "C" LIMIT \(Int64(page.limit + 1)) OFFSET \(Int64(after == nil ? page.offset : 0))
                """
            let rows = try await connection.query(query, logger: logger).collect()
            let entries = try rows.prefix(page.limit).map { row in
                let (id, name, avatar, summary, follows, outgoing, incoming) = try row.decode(
                    (String, String, String?, String, Bool, String?, String?).self)
                return UserListEntry(
                    user: User(id: UserID(id), name: name, avatarURL: avatar, summary: summary), viewerFollows: follows,
                    friendState: SQLiteProfileStore.friendState(outgoing: outgoing, incoming: incoming))
            }
            return Page(items: entries, hasMore: rows.count > page.limit)
        }
    }

    public func setFollowing(_ following: Bool, follower: UserID, followee: UserID) async throws {
        guard follower != followee else { throw ProfileError.notPermitted("You cannot follow yourself.") }
        let changes: [ProfileChange] = [.profile(follower), .profile(followee), .relationships(of: follower), .relationships(of: followee)]
        try await writing("change a follow", announcing: changes) { connection, logger in
            try await Self.requireUser(follower, on: connection, logger: logger)
            try await Self.requireUser(followee, on: connection, logger: logger)
            if following {
                try await connection.query(
                    "INSERT INTO follows (follower, followee) VALUES (\(follower.rawValue), \(followee.rawValue)) ON CONFLICT DO NOTHING", logger: logger)
            } else {
                try await connection.query(
                    "DELETE FROM follows WHERE follower = \(follower.rawValue) AND followee = \(followee.rawValue)", logger: logger)
            }
        }
    }

    public func changeFriendship(_ change: FriendshipChange, from user: UserID, with other: UserID) async throws -> FriendState {
        guard user != other else { throw ProfileError.notPermitted("You cannot befriend yourself.") }
        let changes: [ProfileChange] = [.profile(user), .profile(other), .relationships(of: user), .relationships(of: other)]
        let pair = [user.rawValue, other.rawValue].sorted().joined(separator: "\u{1F}")
        return try await writing("change a friendship", announcing: changes, locking: "friendship\u{1F}" + pair) { connection, logger in
            try await Self.requireUser(user, on: connection, logger: logger)
            try await Self.requireUser(other, on: connection, logger: logger)
            let (a, b) = (user.rawValue, other.rawValue)
            func status(_ requester: String, _ addressee: String) async throws -> String? {
                try await connection.query("SELECT status FROM friendships WHERE requester = \(requester) AND addressee = \(addressee)", logger: logger)
                    .collect().first?.decode(String.self)
            }
            let state = SQLiteProfileStore.friendState(outgoing: try await status(a, b), incoming: try await status(b, a))
            switch (change, state) {
            case (.request, .none):
                try await connection.query("INSERT INTO friendships (requester, addressee, status) VALUES (\(a), \(b), 'pending')", logger: logger)
                return .requested
            case (.request, .incoming), (.accept, .incoming):
                try await connection.query("UPDATE friendships SET status = 'accepted' WHERE requester = \(b) AND addressee = \(a)", logger: logger)
                return .friends
            case (.request, _):
                return state
            case (.accept, _):
                throw ProfileError.notPermitted("There is no friend request from \(other.rawValue.quoted) to accept.")
            case (.remove, _):
                try await connection.query(
                    "DELETE FROM friendships WHERE (requester = \(a) AND addressee = \(b)) OR (requester = \(b) AND addressee = \(a))", logger: logger)
                return .none
            }
        }
    }
}
