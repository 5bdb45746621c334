import ProfileDomain
import ScenerySiteStorePostgres

extension PostgresProfileStore {
    /// A read the store shares between callers asking it at once: everything its answer
    /// depends on, the viewer included.
    enum ReadQuestion: Hashable, Sendable {
        case profile(UserID, viewer: UserID?)
        case blog(BlogID, viewer: UserID?)
        case blogs(by: UserID, viewer: UserID?, page: PageRequest)
        case users(UserListKind, of: UserID, viewer: UserID?, page: PageRequest)
    }

    /// The answer to `question` from `table`: of the read running for it since the change
    /// feed's current mark, or of `read`.
    func shared<Value: Sendable>(
        _ table: SharedReads<ReadQuestion, Value>, _ question: ReadQuestion, read: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await table.value(of: question, at: feed.changeMark ?? 0, read: read)
    }
}
