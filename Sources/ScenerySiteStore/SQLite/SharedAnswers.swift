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
/// Call it with the connection held (inside `SQLiteSiteStore.withConnection(_:)`, either form):
///
/// ```swift
/// let tasks = SharedAnswers<Int64, BoardTask>()
/// try store.withConnection { connection throws(DataError) in
///     try tasks.answer(to: 7, in: connection) { () throws(DataError) in try readTask(7, connection) }
/// }
/// ```
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
        if let answer = table.withLock({ $0.version == version ? $0.answers[question] : nil }) { return answer }
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

    /// How many answers are kept now.
    public var count: Int { table.withLock { $0.answers.count } }
}
