import ProfileDemoDomain
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

    /// The answer to `question` from `table` at the change feed's current mark: kept since
    /// a read at that mark, of a read running at that mark, or of `read`.
    ///
    /// Answers are kept only while the store listens: then every change to the profile's
    /// tables moves the mark (another server's when its notification is heard, this
    /// store's own when it commits). Without the listener the mark would stand still while
    /// other servers write, so only reads running at once are shared.
    func shared<Value: Sendable>(
        _ table: SharedReads<ReadQuestion, Value>, _ question: ReadQuestion, read: @escaping @Sendable () async throws -> Value
    ) async throws -> Value {
        try await table.value(of: question, at: feed.changeMark ?? 0, keep: site.isListening, read: read)
    }
}
