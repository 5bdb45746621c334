/// Which slice of a list to fetch.
public struct PageRequest: Sendable, Hashable {
    /// How many items to skip.
    public var offset: Int
    /// How many items at most.
    public var limit: Int

    public init(offset: Int = 0, limit: Int) {
        self.offset = max(0, offset)
        self.limit = max(1, limit)
    }
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
