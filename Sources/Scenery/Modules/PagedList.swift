/// A list a module loads a page at a time: the one implementation of the first page,
/// refresh, "Load more" and the rows a host's window reaches, for every module that pages.
///
/// It holds the ``LoadState`` and decides what to fetch; the module asks its service and
/// hands the answer back. It is a value, so it lives in the module's actor and never
/// suspends: begin a fetch, `await` the service, then finish or fail it.
///
/// ```swift
/// private var list = PagedList<Blog>(pageSize: 10)
///
/// func load(_ request: LoadRequest) async throws {
///     guard let fetch = list.begin(request) else { return }
///     if fetch.showsIndicator { await context.setNeedsRender() }  // "Loading more…"
///     try await run(fetch)
/// }
///
/// func load(window: RowWindow) async throws {
///     guard let fetch = list.fetch(reaching: window) else { return }
///     try await run(fetch)
/// }
///
/// private func run(_ fetch: PagedList<Blog>.Fetch) async throws {
///     do {
///         let page = try await blogs.blogs(by: author, page: PageRequest(offset: fetch.offset, limit: fetch.limit))
///         list.finish(fetch, items: page.items, hasMore: page.hasMore, total: page.total)
///     } catch {
///         list.fail(fetch)
///         throw error
///     }
/// }
/// ```
public struct PagedList<Item: Identifiable & Sendable>: Sendable where Item.ID: Sendable {
    /// One request to the service: which rows, and what the answer does to the list.
    public struct Fetch: Sendable, Hashable {
        /// The index of the first row to fetch.
        public var offset: Int
        /// How many rows to fetch at most.
        public var limit: Int
        /// Whether the answer replaces the list (a first load or a refresh) rather than
        /// extending it.
        public var replaces: Bool
        /// Whether the list shows a paging indicator while this runs (a next page): render
        /// once after ``PagedList/begin(_:)`` to show it.
        public var showsIndicator: Bool
        /// The list's generation when the fetch began: a refresh since makes it stale.
        let generation: Int
    }

    /// What the list shows: loading, the items (possibly with a paging indicator), empty.
    public private(set) var state: LoadState<[Item]> = .idle
    /// Whether rows exist past the loaded ones.
    public private(set) var hasMore = false
    /// How many rows the whole list holds, when the service says.
    public private(set) var total: Int?
    /// How many rows a page fetches.
    public let pageSize: Int

    /// What the list holds, for a module's ``Module/inspectableState()``: `rows` (how many it
    /// holds), `pageSize`, `hasMore`, `total` when the service said, and `status` (`idle`,
    /// `loading`, `loaded`, `paging`, `empty`, `failed`).
    ///
    /// ```swift
    /// func inspectableState() -> [String: JSONValue] { list.inspectableState }
    /// ```
    public var inspectableState: [String: JSONValue] {
        let status: String =
            switch state {
            case .idle: "idle"
            case .loading: "loading"
            case .loaded: "loaded"
            case .paging: "paging"
            case .empty: "empty"
            case .failed: "failed"
            }
        var facts: [String: JSONValue] = [
            "rows": .int(state.value?.count ?? 0), "pageSize": .int(pageSize), "hasMore": .bool(hasMore), "status": .string(status),
        ]
        if let total { facts["total"] = .int(total) }
        return facts
    }
    private var generation = 0

    /// An empty list that fetches `pageSize` rows a page.
    public init(pageSize: Int) {
        self.pageSize = max(1, pageSize)
    }

    /// The loaded items, in order.
    public var items: [Item] { state.value ?? [] }

    /// Starts a load: the fetch to run, or `nil` when there is nothing to do (no next page,
    /// or one is already loading). A first load shows the loading state (unless items are
    /// shown, which stay during a refresh); a next page shows the paging indicator.
    public mutating func begin(_ request: LoadRequest) -> Fetch? {
        switch request {
        case .initial, .refresh:
            if state.value == nil { state = .loading }
            return Fetch(offset: 0, limit: pageSize, replaces: true, showsIndicator: false, generation: generation)
        case .nextPage:
            guard hasMore, let shown = state.value, !shown.isEmpty, !state.isBusy else { return nil }
            state = .paging(shown)
            return Fetch(offset: shown.count, limit: pageSize, replaces: false, showsIndicator: true, generation: generation)
        }
    }

    /// A fetch of every row loaded again (a page at least), replacing the list: for data
    /// that changed elsewhere, so that the rows a host shows stay loaded.
    /// The list shows what it showed until the answer comes (no loading state), and keeps
    /// it if the fetch fails.
    public func reload() -> Fetch {
        Fetch(offset: 0, limit: max(pageSize, state.value?.count ?? 0), replaces: true, showsIndicator: false, generation: generation)
    }

    /// The fetch of the rows a window reaches that are not loaded (from the last loaded row
    /// to the window's end, in one request), or `nil` when they are all here. It changes
    /// nothing until it finishes.
    public func fetch(reaching window: RowWindow) -> Fetch? {
        guard hasMore, case .loaded(let shown) = state, shown.count < window.start + window.count else { return nil }
        return Fetch(offset: shown.count, limit: window.start + window.count - shown.count, replaces: false, showsIndicator: false, generation: generation)
    }

    /// Takes the service's answer to `fetch`. A first page or refresh replaces the list; a
    /// later page is appended, leaving out items already there (a row written meanwhile
    /// shifts the pages). An answer to a fetch a refresh has overtaken is ignored.
    public mutating func finish(_ fetch: Fetch, items: [Item], hasMore: Bool, total: Int? = nil) {
        if fetch.replaces {
            generation += 1
            state = items.isEmpty ? .empty : .loaded(items)
        } else {
            guard fetch.generation == generation, let shown = state.value, shown.count == fetch.offset else { return }
            let known = Set(shown.map(\.id))
            state = .loaded(shown + items.filter { !known.contains($0.id) })
        }
        self.hasMore = hasMore
        self.total = total ?? self.total
    }

    /// The fetch failed: the rows shown before it stay (the paging indicator goes). A failed
    /// first load leaves the loading state for the runtime's error block.
    public mutating func fail(_ fetch: Fetch) {
        if case .paging(let shown) = state, !fetch.replaces { state = .loaded(shown) }
    }

    /// Puts `item` among the loaded rows at `index` (clamped), if no row has its id: a row
    /// the service no longer lists but the person just acted on (someone unfollowed from a
    /// list of people they follow), kept in place until the list is refreshed.
    public mutating func insert(_ item: Item, at index: Int) {
        let items = state.value ?? []
        guard !items.contains(where: { $0.id == item.id }) else { return }
        var updated = items
        updated.insert(item, at: max(0, min(index, items.count)))
        state = .loaded(updated)
    }

    /// Puts `item` in place of the loaded item with its id (an optimistic change, or its
    /// rollback); nothing happens when it is not loaded.
    public mutating func replace(_ item: Item) {
        // The state lets go of its array before the item is put in, so that the array is
        // changed in place, not copied whole: a change reaching a thousand pages replaces one
        // row on each.
        switch state {
        case .loaded(var items):
            state = .idle
            items.replaceItems(withID: item)
            state = .loaded(items)
        case .paging(var items):
            state = .idle
            items.replaceItems(withID: item)
            state = .paging(items)
        default: break
        }
    }

    /// The loaded item with an id.
    ///
    /// Inlinable, so a module's list compares its own item type's ids directly (a like asks
    /// once per open page).
    @inlinable
    public func item(withID id: Item.ID) -> Item? {
        items.first { $0.id == id }
    }

    /// A section of the loaded rows: all of them, or, in a window, only the rows it holds
    /// with the whole list's size (the total the service gave, or what is loaded).
    public func section(id: NodeID, header: String? = nil, window: RowWindow? = nil, row: (Item) -> ViewNode) -> ViewNode.Section {
        let items = items
        return .windowed(id: id, header: header, total: max(total ?? 0, items.count), available: items.count, window: window) { row(items[$0]) }
    }

    /// The "Load more" button, when another page exists and the list is not shown as a
    /// window (a host that scrolls fetches rows by moving the window instead).
    public func moreButton(title: String, module: ModuleID, window: RowWindow? = nil) -> ViewNode? {
        guard hasMore, window == nil else { return nil }
        return .button("more", title: title, sends: EventDescriptor(.loadMore(module)))
    }
}

extension Array where Element: Identifiable {
    /// Puts `item` in place of each element with its id.
    fileprivate mutating func replaceItems(withID item: Element) {
        for index in indices where self[index].id == item.id { self[index] = item }
    }
}
