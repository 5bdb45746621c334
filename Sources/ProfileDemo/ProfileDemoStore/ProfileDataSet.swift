import Foundation
import ProfileDemoDomain
import Scenery
import ScenerySiteStore

/// The whole profile data set as JSON: what `scenery data export` writes and
/// `scenery data import` reads, so people can load their own data.
///
/// ```json
/// { "format": "scenery.profile-data", "version": 1,
///   "users": [ { "id": "1", "name": "Alice", "avatarURL": null, "summary": "…" } ],
///   "blogs": [ { "id": 1, "author": "1", "title": "…", "body": "…", "createdAt": "2026-01-01T09:00:00Z" } ],
///   "likes": [ { "blog": 1, "user": "2" } ],
///   "drafts": [ { "id": 1, "owner": "1", "title": "…", "body": "", "editedAt": "2026-01-02T10:00:00Z" } ],
///   "follows": [ { "follower": "2", "followee": "1" } ],
///   "friendships": [ { "requester": "1", "addressee": "3", "status": "accepted" } ] }
/// ```
public struct ProfileDataSet: Sendable, Hashable, Codable {
    public struct BlogRecord: Sendable, Hashable, Codable {
        public var id: Int64
        public var author: UserID
        public var title: String
        public var body: String
        public var createdAt: Date

        public init(id: Int64, author: UserID, title: String, body: String, createdAt: Date) {
            self.id = id
            self.author = author
            self.title = title
            self.body = body
            self.createdAt = createdAt
        }
    }

    public struct LikeRecord: Sendable, Hashable, Codable {
        public var blog: Int64
        public var user: UserID
        public init(blog: Int64, user: UserID) {
            self.blog = blog
            self.user = user
        }
    }

    public struct FollowRecord: Sendable, Hashable, Codable {
        public var follower: UserID
        public var followee: UserID
        public init(follower: UserID, followee: UserID) {
            self.follower = follower
            self.followee = followee
        }
    }

    public struct FriendshipRecord: Sendable, Hashable, Codable {
        public enum Status: String, Sendable, Hashable, Codable { case pending, accepted }
        public var requester: UserID
        public var addressee: UserID
        public var status: Status
        public init(requester: UserID, addressee: UserID, status: Status) {
            self.requester = requester
            self.addressee = addressee
            self.status = status
        }
    }

    /// Always `scenery.profile-data`.
    public var format = "scenery.profile-data"
    /// The format version.
    public var version = 1
    public var users: [User]
    public var blogs: [BlogRecord]
    public var likes: [LikeRecord]
    public var drafts: [Draft]
    public var follows: [FollowRecord]
    public var friendships: [FriendshipRecord]

    public init(
        users: [User], blogs: [BlogRecord] = [], likes: [LikeRecord] = [], drafts: [Draft] = [],
        follows: [FollowRecord] = [], friendships: [FriendshipRecord] = []
    ) {
        self.users = users
        self.blogs = blogs
        self.likes = likes
        self.drafts = drafts
        self.follows = follows
        self.friendships = friendships
    }

    private enum CodingKeys: String, CodingKey {
        case format, version, users, blogs, likes, drafts, follows, friendships
    }

    /// Reads a data set; `format` and `version` may be left out, and so may every list
    /// but `users`.
    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        format = try container.decodeIfPresent(String.self, forKey: .format) ?? "scenery.profile-data"
        version = try container.decodeIfPresent(Int.self, forKey: .version) ?? 1
        users = try container.decode([User].self, forKey: .users)
        blogs = try container.decodeIfPresent([BlogRecord].self, forKey: .blogs) ?? []
        likes = try container.decodeIfPresent([LikeRecord].self, forKey: .likes) ?? []
        drafts = try container.decodeIfPresent([Draft].self, forKey: .drafts) ?? []
        follows = try container.decodeIfPresent([FollowRecord].self, forKey: .follows) ?? []
        friendships = try container.decodeIfPresent([FriendshipRecord].self, forKey: .friendships) ?? []
    }

    /// The same data in canonical order (by id, then by the pair of users): the order
    /// ``SQLiteProfileStore/exportData()`` writes.
    public func normalized() -> ProfileDataSet {
        var copy = self
        copy.users.sort { $0.id < $1.id }
        copy.blogs.sort { $0.id < $1.id }
        copy.likes.sort { ($0.blog, $0.user) < ($1.blog, $1.user) }
        copy.drafts.sort { $0.id < $1.id }
        copy.follows.sort { ($0.follower, $0.followee) < ($1.follower, $1.followee) }
        copy.friendships.sort { ($0.requester, $0.addressee) < ($1.requester, $1.addressee) }
        return copy
    }

    /// The problems that make the data set unusable: duplicate ids, references to
    /// users or blogs that do not exist, users following or befriending themselves.
    public var problems: [DataProblem] {
        var problems: [DataProblem] = []
        func add(_ path: String, _ message: String) { problems.append(DataProblem(path: path, message: message)) }
        if format != "scenery.profile-data" {
            add("format", "is \(format.quoted); a profile data file has \"format\": \"scenery.profile-data\".")
        }
        if version != 1 { add("version", "is \(version); this program reads version 1.") }
        var userIDs: Set<UserID> = []
        for (index, user) in users.enumerated() {
            if user.id.rawValue.isEmpty { add("users[\(index)].id", "is empty; give every user an id.") }
            if !userIDs.insert(user.id).inserted { add("users[\(index)].id", "\(user.id.rawValue.quoted) is used twice; ids must be unique.") }
        }
        func check(_ id: UserID, _ path: String) {
            if !userIDs.contains(id) { add(path, "names the user \(id.rawValue.quoted), who is not in \"users\".") }
        }
        // What the database can hold and export again: years 1 to 9999.
        func check(_ date: Date, _ path: String) {
            if !Self.storableDates.contains(date.timeIntervalSince1970) {
                add(path, "is outside the years 1 to 9999; give a date such as \"2026-01-01T09:00:00Z\".")
            }
        }
        var blogIDs: Set<Int64> = []
        for (index, blog) in blogs.enumerated() {
            if !blogIDs.insert(blog.id).inserted { add("blogs[\(index)].id", "\(blog.id) is used twice; ids must be unique.") }
            check(blog.author, "blogs[\(index)].author")
            check(blog.createdAt, "blogs[\(index)].createdAt")
        }
        var likeKeys: Set<LikeRecord> = []
        for (index, like) in likes.enumerated() {
            if !blogIDs.contains(like.blog) { add("likes[\(index)].blog", "names the blog \(like.blog), which is not in \"blogs\".") }
            check(like.user, "likes[\(index)].user")
            if !likeKeys.insert(like).inserted { add("likes[\(index)]", "repeats a like; remove it.") }
        }
        var draftIDs: Set<Int64> = []
        for (index, draft) in drafts.enumerated() {
            if !draftIDs.insert(draft.id).inserted { add("drafts[\(index)].id", "\(draft.id) is used twice; ids must be unique.") }
            check(draft.owner, "drafts[\(index)].owner")
            check(draft.editedAt, "drafts[\(index)].editedAt")
            if draft.version < 1 { add("drafts[\(index)].version", "\(draft.version) is not a version; versions count saves from 1.") }
        }
        var followKeys: Set<FollowRecord> = []
        for (index, follow) in follows.enumerated() {
            check(follow.follower, "follows[\(index)].follower")
            check(follow.followee, "follows[\(index)].followee")
            if follow.follower == follow.followee { add("follows[\(index)]", "a user cannot follow themselves.") }
            if !followKeys.insert(follow).inserted { add("follows[\(index)]", "repeats a follow; remove it.") }
        }
        var pairs: Set<[UserID]> = []
        for (index, friendship) in friendships.enumerated() {
            check(friendship.requester, "friendships[\(index)].requester")
            check(friendship.addressee, "friendships[\(index)].addressee")
            if friendship.requester == friendship.addressee { add("friendships[\(index)]", "a user cannot befriend themselves.") }
            if !pairs.insert([friendship.requester, friendship.addressee].sorted()).inserted {
                add("friendships[\(index)]", "these two users already have a friendship or request; keep one.")
            }
        }
        return problems
    }

    /// What the data set holds, in words: "3 users, 2 blogs, 1 drafts".
    public var contentsInWords: String {
        "\(users.count) users, \(blogs.count) blogs, \(drafts.count) drafts"
    }

    /// Reads a data set from JSON.
    /// - Throws: `ProfileError/invalidData(_:)` with the JSON path of the problem.
    public static func decode(from data: Data) throws(ProfileError) -> ProfileDataSet {
        let decoder = JSONDecoder()
        // Foundation's .iso8601 names neither the key nor the text it could not read.
        decoder.dateDecodingStrategy = .custom { decoder in
            let container = try decoder.singleValueContainer()
            let text = try container.decode(String.self)
            guard let date = Self.isoDate(text) else {
                throw DecodingError.dataCorruptedError(
                    in: container,
                    debugDescription: "\(String(text.prefix(40)).quoted) is not an ISO 8601 date; write it as \"2026-01-08T09:00:00Z\" (UTC) or with an offset."
                )
            }
            return date
        }
        do {
            return try decoder.decode(ProfileDataSet.self, from: data)
        } catch let error as DecodingError {
            throw .invalidData([Self.problem(for: error)])
        } catch {
            throw .invalidData([DataProblem(path: "", message: error.localizedDescription)])
        }
    }

    /// A date in ISO 8601 as `data export` writes it (`2026-01-08T09:00:00Z`), with or
    /// without fractional seconds, or `nil`.
    static func isoDate(_ text: String) -> Date? {
        let plain = ISO8601DateFormatter()
        if let date = plain.date(from: text) { return date }
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        return fractional.date(from: text)
    }

    /// The dates a data set may hold, in seconds since 1970: the years 1 to 9999 (what ISO
    /// 8601 dates with four-digit years can say).
    static let storableDates = -62_135_596_800.0...253_402_300_799.0

    /// The data set as pretty-printed JSON with sorted keys.
    public func encoded() -> Data {
        // Strings, numbers and dates always encode.
        (try? Self.encoder.encode(self)) ?? Data()
    }

    /// The encoder of ``encoded()``: pretty-printed, sorted keys, ISO 8601 dates.
    static var encoder: JSONEncoder {
        let encoder = JSONEncoder()
        encoder.dateEncodingStrategy = .iso8601
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        return encoder
    }

    private static func problem(for error: DecodingError) -> DataProblem {
        func path(_ codingPath: [any CodingKey]) -> String {
            let text = codingPath.map { key in key.intValue.map { "[\($0)]" } ?? ".\(key.stringValue)" }.joined()
            return text.hasPrefix(".") ? String(text.dropFirst()) : text
        }
        switch error {
        case .typeMismatch(let type, let context):
            if context.codingPath.isEmpty {
                return DataProblem(
                    path: "",
                    message:
                        "A data file must be a JSON object with \"users\", \"blogs\" and the rest (format scenery.profile-data), not another kind of value.")
            }
            return DataProblem(path: path(context.codingPath), message: "must be \(describe(type)); fix that value.")
        case .valueNotFound(let type, let context):
            return DataProblem(path: path(context.codingPath), message: "is null or missing; it must be \(describe(type)).")
        case .keyNotFound(let key, let context):
            return DataProblem(path: path(context.codingPath), message: "lacks the key \"\(key.stringValue)\"; add it.")
        case .dataCorrupted(let context):
            if context.codingPath.isEmpty {
                return DataProblem(path: "", message: "This is not valid JSON (\(context.debugDescription)); check the syntax.")
            }
            return DataProblem(path: path(context.codingPath), message: context.debugDescription)
        @unknown default:
            return DataProblem(path: "", message: "\(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is UserID.Type: "a string"
        case is Int64.Type, is Int.Type: "an integer"
        case is Date.Type: "an ISO 8601 date such as \"2026-01-01T09:00:00Z\""
        default:
            String(describing: type).hasPrefix("Array<") ? "an array" : String(describing: type).hasPrefix("Dictionary<") ? "an object" : "\(type)"
        }
    }
}

extension SQLiteProfileStore {
    /// Replaces everything in the database with `dataSet`, in one transaction.
    ///
    /// - Throws: `ProfileError/invalidData(_:)` listing every problem of the data set;
    ///   nothing is changed then.
    public func importData(_ dataSet: ProfileDataSet) throws(ProfileError) {
        try withConnection { connection throws(ProfileError) in
            let problems = dataSet.problems
            guard problems.isEmpty else { throw .invalidData(problems) }
            try committing([.everything], in: connection) { () throws(ProfileError) in try Self.replaceAll(with: dataSet, in: connection) }
        }
    }

    /// Replaces every row with the data set's, inside the caller's transaction.
    static func replaceAll(with dataSet: ProfileDataSet, in connection: SQLiteConnection) throws(ProfileError) {
        let problems = dataSet.problems
        guard problems.isEmpty else { throw .invalidData(problems) }
        for table in ["likes", "friendships", "follows", "drafts", "blogs", "users"] {
            try connection.run("DELETE FROM \(table)")
        }
        try insertAll(dataSet, in: connection)
    }

    /// Inserts one blog, inside the caller's transaction.
    static func insert(_ blog: ProfileDataSet.BlogRecord, in connection: SQLiteConnection) throws(ProfileError) {
        try connection.run(
            "INSERT INTO blogs (id, author, title, body, created_at) VALUES (?, ?, ?, ?, ?)",
            [SQLValue(blog.id), SQLValue(blog.author), SQLValue(blog.title), SQLValue(blog.body), SQLValue(blog.createdAt.timeIntervalSince1970)])
    }

    /// Inserts a checked data set into empty tables, inside the caller's transaction.
    static func insertAll(_ dataSet: ProfileDataSet, in connection: SQLiteConnection) throws(ProfileError) {
        for user in dataSet.users {
            try connection.run(
                "INSERT INTO users (id, name, avatar_url, summary) VALUES (?, ?, ?, ?)",
                [SQLValue(user.id), SQLValue(user.name), SQLValue(user.avatarURL), SQLValue(user.summary)])
        }
        for blog in dataSet.blogs { try insert(blog, in: connection) }
        for like in dataSet.likes {
            try connection.run("INSERT INTO likes (blog, user) VALUES (?, ?)", [SQLValue(like.blog), SQLValue(like.user)])
        }
        for draft in dataSet.drafts {
            try connection.run(
                "INSERT INTO drafts (id, owner, title, body, edited_at, version) VALUES (?, ?, ?, ?, ?, ?)",
                [
                    SQLValue(draft.id), SQLValue(draft.owner), SQLValue(draft.title), SQLValue(draft.body), SQLValue(draft.editedAt.timeIntervalSince1970),
                    SQLValue(Int64(draft.version)),
                ])
        }
        for follow in dataSet.follows {
            try connection.run("INSERT INTO follows (follower, followee) VALUES (?, ?)", [SQLValue(follow.follower), SQLValue(follow.followee)])
        }
        for friendship in dataSet.friendships {
            try connection.run(
                "INSERT INTO friendships (requester, addressee, status) VALUES (?, ?, ?)",
                [SQLValue(friendship.requester), SQLValue(friendship.addressee), SQLValue(friendship.status.rawValue)])
        }
    }
}
