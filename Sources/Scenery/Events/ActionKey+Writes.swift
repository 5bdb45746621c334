import Synchronization

extension ActionKey {
    /// Runs `body` as the action keyed `key`: ``current`` is `key`, and each write a store
    /// makes for it takes its own key from ``forNextWrite()``, so that an action that
    /// writes twice records two keys, and running the action again skips exactly the
    /// writes that were applied.
    ///
    /// A host runs each action a page sent this way; `nil` runs `body` as no action.
    ///
    /// ```swift
    /// await ActionKey.run(as: key) { await scene.send(event) }
    /// ```
    @discardableResult
    public static func run<Value>(
        as key: ActionKey?, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Value
    ) async rethrows -> Value {
        try await $current.withValue(key) {
            try await $writes.withValue(key.map { _ in WriteCounter() }) { try await body() }
        }
    }

    /// The key the next write of the current action records, in the write's own
    /// transaction, before anything else: the action's key (``current``) for its first
    /// write, `<key>#2` for its second, and so on. `nil` outside an action. A store that
    /// finds the key recorded already rolls the write back and reports that it was
    /// applied before.
    ///
    /// Outside ``run(as:isolation:_:)`` (``current`` bound by hand), every write takes the
    /// action's key.
    public static func forNextWrite() -> ActionKey? {
        guard let current else { return nil }
        let ordinal = writes?.next() ?? 1
        return ordinal == 1 ? current : ActionKey(checked: "\(current.rawValue)#\(ordinal)")
    }

    /// Counts the writes of one run of an action.
    final class WriteCounter: Sendable {
        private let count = Atomic<Int>(0)

        /// 1 for the first write, 2 for the second…
        func next() -> Int { count.add(1, ordering: .relaxed).newValue }
    }

    /// The writes of the action running in this task.
    @TaskLocal static var writes: WriteCounter?
}
