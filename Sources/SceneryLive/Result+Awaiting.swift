extension Result where Failure == any Error {
    /// The value `body` returns, or the error it throws, run in the caller's isolation (for
    /// ``ModuleNotice/settle(_:retrying:with:)``).
    public init(isolation: isolated (any Actor)? = #isolation, _ body: () async throws -> Success) async {
        do {
            self = .success(try await body())
        } catch {
            self = .failure(error)
        }
    }
}
