/// Why the runtime asks a module to load.
public enum LoadRequest: String, Sendable, Hashable, CaseIterable {
    /// The scene started, or a failed module is retried.
    case initial
    /// The person asked for fresh data: load from the first page again.
    case refresh
    /// The person reached the end of what is shown: load the next page.
    case nextPage
}
