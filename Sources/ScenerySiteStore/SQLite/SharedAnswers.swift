import Scenery

/// Answers of reads shared while the database has not changed: many pages asking the same
/// question (every signed-out page reading the blog that was just liked) get one read's
/// answer.
///
/// An answer is kept for the connection's ``SQLiteConnection/dataVersion()``: the first
/// write of this connection, or commit of another process, after it was read makes the
/// next caller read again. A read inside a transaction is never shared. A question must
/// name everything its answer depends on (the viewer too). At most `capacity` answers are
/// kept; a full table starts again empty.
///
/// From an `async` store call, ask it of the store: a kept answer is returned on the
/// caller's thread, with no hop to the store's thread, when the connection is free.
///
/// ```swift
/// let tasks = SharedAnswers<Int64, BoardTask>()
/// let task = try await tasks.answer(to: 7, from: store) { connection throws(DataError) in
///     try readTask(7, connection)
/// }
/// ```
///
/// With the connection already held (inside `SQLiteSiteStore.withConnection(_:)`, either
/// form), ask it of the connection: ``answer(to:in:read:)``.
public final class SharedAnswers<Question: Hashable & Sendable, Value: Sendable>: Sendable {
    private struct Table {
        var version: SQLiteConnection.DataVersion?
        var answers: [Question: Value] = [:]
    }

    private let table = Locked(Table())

    /// How many answers are kept at most.
    public let capacity: Int

    /// No answers yet; at most `capacity` kept (at least one).
    public init(capacity: Int = 1024) {
        self.capacity = max(1, capacity)
    }

    /// The answer to `question`: one read since the database last changed, or `read`'s now.
    public func answer(
        to question: Question, in connection: SQLiteConnection, read: () throws(DataError) -> Value
    ) throws(DataError) -> Value {
        guard let version = try connection.dataVersion() else { return try read() }
        if let answer = keptAnswer(to: question, at: version) { return answer }
        let answer = try read()
        table.withLock { table in
            if table.version != version || table.answers.count >= capacity {
                table.version = version
                table.answers.removeAll(keepingCapacity: true)
            }
            table.answers[question] = answer
        }
        return answer
    }

    /// The answer to `question` from `store`: the kept one, on the caller's thread, when the
    /// connection is free and the database has not changed since it was read; otherwise
    /// `read`'s, on the store's thread (as `SQLiteSiteStore.withConnection(_:)`'s `async`
    /// form runs a call), kept for the callers after it.
    ///
    /// A page per person showing one row, each asking for it again after a change, makes the
    /// one read and a thousand look-ups, not a thousand hops to the store's thread and back.
    /// A look-up never waits: if another call holds the connection, it hops as a read would.
    public func answer(
        to question: Question, from store: SQLiteSiteStore, read: @escaping @Sendable (SQLiteConnection) throws(DataError) -> Value
    ) async throws(DataError) -> Value {
        let kept = try store.withConnectionIfFree { connection throws(DataError) -> Value? in
            guard let version = try connection.dataVersion() else { return nil }
            return keptAnswer(to: question, at: version)
        }
        if case .some(.some(let answer)) = kept { return answer }
        return try await store.withConnection { connection throws(DataError) in
            try self.answer(to: question, in: connection) { () throws(DataError) in try read(connection) }
        }
    }

    /// The answer kept for `question`, if the table is at `version`.
    private func keptAnswer(to question: Question, at version: SQLiteConnection.DataVersion) -> Value? {
        table.withLock { $0.version == version ? $0.answers[question] : nil }
    }

    /// How many answers are kept now.
    public var count: Int { table.withLock { $0.answers.count } }
}
