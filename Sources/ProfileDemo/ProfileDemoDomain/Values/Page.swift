import Foundation
import Scenery

/// Which slice of a list to fetch: by position (`offset`), or the items that come after
/// one already shown (`after`, keyset paging).
///
/// Paging by position shifts when rows are added before it (a new blog on top makes the
/// next page repeat the last row shown); paging after an item does not, so a module that
/// appends the next page of a live list passes the last item it holds:
///
/// ```swift
/// let next = PageRequest(offset: shown.count, limit: 10, after: .blogs(after: shown[shown.count - 1]))
/// ```
public struct PageRequest: Sendable, Hashable {
    /// How many items to skip (ignored by a store that understands `after`).
    public var offset: Int
    /// How many items at most.
    public var limit: Int
    /// The items after this place in the list's order; `nil` to page by `offset`.
    public var after: PageCursor?

    public init(offset: Int = 0, limit: Int, after: PageCursor? = nil) {
        self.offset = max(0, offset)
        self.limit = max(1, limit)
        self.after = after
    }
}

/// A place in a list's order, for keyset paging (``PageRequest/after``).
///
/// A blog list is ordered newest first, by creation time and then id, so its place is the
/// pair: ``blogs(after:)``; a draft list the same by time edited: ``drafts(after:)``; a
/// user list by name (ASCII letters in either case alike), then id: ``users(after:)``.
/// Stores read them with ``blogPosition``, ``draftPosition`` and ``userPosition``; a cursor
/// they cannot read pages by offset instead.
public struct PageCursor: Sendable, Hashable, CustomStringConvertible {
    /// The cursor's text: what a host may keep and send back.
    public let rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    /// The place right after `blog` in a list of blogs, newest first.
    public static func blogs(after blog: Blog) -> PageCursor {
        timed("blog", blog.createdAt, id: "\(blog.id)")
    }

    /// The blog position this cursor names (creation time in seconds since 1970, id), or
    /// `nil` if it names none.
    public var blogPosition: (createdAt: Double, id: BlogID)? {
        guard let (seconds, id) = timedPosition("blog"), let blog = BlogID(String(id)) else { return nil }
        return (seconds, blog)
    }

    /// The place right after `draft` in a list of drafts, most recently edited first.
    public static func drafts(after draft: Draft) -> PageCursor {
        timed("draft", draft.editedAt, id: "\(draft.id)")
    }

    /// The draft position this cursor names (time edited in seconds since 1970, id), or
    /// `nil` if it names none.
    public var draftPosition: (editedAt: Double, id: Int64)? {
        guard let (seconds, id) = timedPosition("draft"), let draft = Int64(id) else { return nil }
        return (seconds, draft)
    }

    /// `kind:TIME:id`, the time as its exact bits, so that the comparison in the store is exact.
    private static func timed(_ kind: String, _ date: Date, id: String) -> PageCursor {
        PageCursor(rawValue: "\(kind):\(String(date.timeIntervalSince1970.bitPattern, radix: 16)):\(id)")
    }

    private func timedPosition(_ kind: String) -> (seconds: Double, id: Substring)? {
        let parts = rawValue.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == kind, let bits = UInt64(parts[1], radix: 16) else { return nil }
        let seconds = Double(bitPattern: bits)
        guard seconds.isFinite else { return nil }
        return (seconds, parts[2])
    }

    /// The place right after `user` in a list of users ordered by name, then id.
    public static func users(after user: User) -> PageCursor {
        PageCursor(rawValue: "user:\(Self.hex(user.name)):\(Self.hex(user.id.rawValue))")
    }

    /// The user position this cursor names (name, id), or `nil` if it names none.
    public var userPosition: (name: String, id: UserID)? {
        let parts = rawValue.split(separator: ":", omittingEmptySubsequences: false)
        guard parts.count == 3, parts[0] == "user", let name = Self.text(fromHex: parts[1]), let id = Self.text(fromHex: parts[2]) else {
            return nil
        }
        return (name, UserID(id))
    }

    /// Text as hex of its UTF-8 (a name may hold the separator).
    private static func hex(_ text: String) -> String { Hex.text(text.utf8) }

    private static func text(fromHex hex: Substring) -> String? {
        Hex.bytes(hex).flatMap { String(validating: $0, as: UTF8.self) }
    }

    public var description: String { rawValue }
}

/// A slice of a list and whether more follows.
public struct Page<Item: Sendable>: Sendable {
    public var items: [Item]
    /// Whether items exist past this page.
    public var hasMore: Bool
    /// How many items the whole list holds, when the service knows it cheaply (a host sizes
    /// the scrolling of a long list with it).
    public var total: Int?

    public init(items: [Item], hasMore: Bool, total: Int? = nil) {
        self.items = items
        self.hasMore = hasMore
        self.total = total
    }
}

extension Page: Equatable where Item: Equatable {}
