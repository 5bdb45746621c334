/// The newest keys, at most `capacity`, in the order first inserted: past it, the oldest are
/// forgotten. What `MemoryActionLedger` and a page session remember of actions.
package struct RecentKeys<Key: Hashable & Sendable>: Sendable {
    private var set: Set<Key> = []
    private var order: [Key] = []
    /// The most keys it keeps.
    package let capacity: Int

    package init(capacity: Int) {
        self.capacity = max(1, capacity)
    }

    package func contains(_ key: Key) -> Bool { set.contains(key) }

    /// Inserts `key` unless it is kept; returns whether it was new.
    @discardableResult
    package mutating func insert(_ key: Key) -> Bool {
        guard set.insert(key).inserted else { return false }
        order.append(key)
        if order.count > capacity {
            let excess = order.count - capacity
            for old in order.prefix(excess) { set.remove(old) }
            order.removeFirst(excess)
        }
        return true
    }

    /// The newest `count` keys, oldest first.
    package func newest(_ count: Int) -> ArraySlice<Key> { order.suffix(count) }
}
