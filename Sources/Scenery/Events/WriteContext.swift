import Synchronization

/// What a write is made for, bound for the task that makes it: the action it carries out
/// (so that it is applied once), the page whose person acted (so that what it changes is not
/// announced back to them), and the module writing (so that its own write is not handed back
/// to it).
///
/// The runtime binds it: a host runs each action a page sent under the action's key
/// (`ActionKey.run(as:isolation:_:)`), a scene routes its person's events on its page
/// (``onPage(_:)``), and a module's `LiveQuery` writes as the module (``writing(as:)``). A
/// store reads ``current`` when it writes: the key its write records first
/// (``nextWriteKey()``), the page and the writer its change is published with.
///
/// It is a task-local value, so a child task keeps it and an unstructured `Task.detached`
/// does not: write from the task that handles the event. A write that belongs to no action
/// (an import, a background job) says so: ``outsideAnyAction(isolation:_:)``.
///
/// ```swift
/// await ActionKey.run(as: key) { await scene.send(event) }   // a host
/// let key = WriteContext.current.nextWriteKey()              // a store, in its transaction
/// ```
public struct WriteContext: Sendable {
    /// The action whose writes are being made, if any.
    public private(set) var action: ActionKey?
    /// The page whose person's action is carried out, if any.
    public private(set) var page: ChangeSource?
    /// The module making the write, if any.
    public private(set) var writer: ChangeSource?
    /// Counts the writes of one run of ``action``.
    private var writes: WriteCounter?
    /// Whether the task's writes were said to be for something: an action or none
    /// (``carryingOut(_:)``, `ActionKey.run(as:isolation:_:)`), a page (``onPage(_:)``), or
    /// nobody's action (``outsideAnyAction(isolation:_:)``). The runtime binds it for every
    /// event, load and live change it runs for a module; a task that lost it (a
    /// `Task.detached` a module started) has the unbound default, and a module's write
    /// there would lose exactly-once, the echo skip and the announcement's origin: debug
    /// builds stop at such a write (`SceneryLive`'s `LiveChanges.writing`, which `LiveQuery`
    /// writes through).
    ///
    /// ```swift
    /// assert(WriteContext.current.isBound, "write from the task that handles the event")
    /// ```
    public private(set) var isBound = false

    /// No action, no page, no writer.
    public init() {}

    /// The context of the current task's writes.
    @TaskLocal public static var current = WriteContext()

    /// This context carrying out `action` (`nil`: none), its writes counted from the first.
    public func carryingOut(_ action: ActionKey?) -> WriteContext {
        var context = self
        context.isBound = true
        context.action = action
        context.writes = action.map { _ in WriteCounter() }
        return context
    }

    /// This context on `page`'s behalf.
    public func onPage(_ page: ChangeSource?) -> WriteContext {
        var context = self
        context.isBound = true
        context.page = page
        return context
    }

    /// This context with `writer` making the writes.
    public func writing(as writer: ChangeSource?) -> WriteContext {
        var context = self
        context.writer = writer
        return context
    }

    /// The key the next write of the action records, in the write's own transaction,
    /// before anything else: the action's key for its first write, `<key>#2` for its second,
    /// and so on; `nil` outside an action. A store that finds the key recorded already rolls
    /// the write back and reports that it was applied before, so running an action again
    /// skips exactly the writes it applied.
    public func nextWriteKey() -> ActionKey? {
        guard let action else { return nil }
        let ordinal = writes?.next() ?? 1
        return ordinal == 1 ? action : ActionKey(checked: "\(action.rawValue)#\(ordinal)")
    }

    /// Runs `body` with this context as ``current``.
    @discardableResult
    public func run<Value>(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Value) async rethrows -> Value {
        try await Self.$current.withValue(self, operation: body)
    }

    /// Runs `body`, which does not suspend, with this context as ``current``.
    @discardableResult
    public func run<Value>(_ body: () throws -> Value) rethrows -> Value {
        try Self.$current.withValue(self, operation: body)
    }

    /// Runs `body` as no action, on no page's behalf, by no module: for a write nobody's
    /// action makes (an import, a job), said where it is made.
    @discardableResult
    public static func outsideAnyAction<Value>(
        isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Value
    ) async rethrows -> Value {
        try await WriteContext().carryingOut(nil).run(body)
    }

    /// Counts the writes of one run of an action.
    private final class WriteCounter: Sendable {
        private let count = Atomic<Int>(0)

        /// 1 for the first write, 2 for the second…
        func next() -> Int { count.add(1, ordering: .relaxed).newValue }
    }
}

extension ActionKey {
    /// Runs `body` as the action keyed `key` (`nil`: as no action), on the current page and
    /// writer: each write a store makes for it takes its own key
    /// (``WriteContext/nextWriteKey()``), so that an action that writes twice records two
    /// keys, and running the action again skips exactly the writes that were applied.
    ///
    /// ```swift
    /// await ActionKey.run(as: key) { await scene.send(event) }
    /// ```
    @discardableResult
    public static func run<Value>(
        as key: ActionKey?, isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Value
    ) async rethrows -> Value {
        try await WriteContext.current.carryingOut(key).run(body)
    }
}
