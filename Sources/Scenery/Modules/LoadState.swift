/// The state of a module's data: the life cycle every self-managing module shares.
///
/// A module keeps one `LoadState` for each thing it fetches, moves it through the
/// cases as requests start and end, and renders from it:
///
/// ```swift
/// state = .loading
/// let page = try await service.blogs(author: author, page: 0)
/// state = page.isEmpty ? .empty : .loaded(page)
/// ```
public enum LoadState<Value: Sendable>: Sendable {
    /// Nothing requested yet.
    case idle
    /// The first request is in flight.
    case loading
    /// Data arrived.
    case loaded(Value)
    /// The request succeeded with nothing to show.
    case empty
    /// The request failed; the message says what went wrong.
    case failed(String)
    /// Data is shown and the next page is in flight.
    case paging(Value)
}

extension LoadState {
    /// The data currently shown, if any (while loaded or paging).
    public var value: Value? {
        switch self {
        case .loaded(let value), .paging(let value): value
        case .idle, .loading, .empty, .failed: nil
        }
    }

    /// Whether a request is in flight.
    public var isBusy: Bool {
        switch self {
        case .loading, .paging: true
        case .idle, .loaded, .empty, .failed: false
        }
    }

    /// Whether a request succeeded, with data or with nothing to show: what a live module
    /// checks before fetching again because its data changed elsewhere.
    public var hasResult: Bool {
        switch self {
        case .loaded, .paging, .empty: true
        case .idle, .loading, .failed: false
        }
    }

    /// The name of the case, for logs and tests ("loading", "paging").
    public var phase: String {
        switch self {
        case .idle: "idle"
        case .loading: "loading"
        case .loaded: "loaded"
        case .empty: "empty"
        case .failed: "failed"
        case .paging: "paging"
        }
    }

    /// Renders the state inside a stack with the id `id` that stays put in every state:
    /// a placeholder for idle, loading, empty and failed (ids `id.loading`, `id.empty`,
    /// `id.error`), `content` for data, and while paging `content` followed by a loading row
    /// (`id.paging`).
    ///
    /// Because the wrapper and the content keep their ids from state to state, loading the
    /// next page reaches a host as the new rows and the indicator, never as the whole
    /// module again. The content's own id must differ from `id` (ids are unique in a tree).
    ///
    /// ```swift
    /// state.render(id: "blogs", emptyMessage: "No blogs yet.") { blogs in
    ///     .list("list", sections: [.init(id: "all", rows: blogs.map(row))])
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - id: The id of the wrapper; the placeholders' ids are derived from it.
    ///   - loadingMessage: What the loading states say.
    ///   - emptyMessage: What the empty state says.
    ///   - retry: The event a retry control sends after a failure.
    ///   - content: Renders the data; its id must not be `id`.
    public func render(
        id: NodeID,
        loadingMessage: String = "Loading…",
        emptyMessage: String = "Nothing here yet.",
        retry: EventDescriptor? = nil,
        content: (Value) -> ViewNode
    ) -> ViewNode {
        let children: [ViewNode] =
            switch self {
            case .idle, .loading: [.loading(NodeID("\(id).loading"), loadingMessage)]
            case .empty: [.empty(NodeID("\(id).empty"), emptyMessage)]
            case .failed(let message): [.error(NodeID("\(id).error"), message, retry: retry)]
            case .loaded(let value): [content(value)]
            case .paging(let value): [content(value), .loading(NodeID("\(id).paging"), loadingMessage)]
            }
        return .stack(id, children)
    }
}

extension LoadState: Equatable where Value: Equatable {}
