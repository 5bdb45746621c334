import ProfileDomain
import Scenery

/// An author's blogs, newest first, paged, with likes.
///
/// A like updates the cell at once and rolls back if the write fails. Selecting a cell
/// sends `blog.open` with the blog's id for the scene to navigate. Refresh and "Load more"
/// are the runtime's `scenery.refresh` and `scenery.loadMore`.
///
/// When a host shows a window of the list (``SceneInstance/setWindow(_:for:)``, a browser
/// scrolling), the module fetches the rows the window reaches and renders only those, with
/// the list's full size; the host scrolls instead of asking for more.
///
/// ```json
/// { "id": "blogs", "type": "BlogModule", "params": { "author": "$user", "pageSize": 10, "likesFormat": "赞 %d" } }
/// ```
public actor BlogModule: Module {
    public static let descriptor = ModuleDescriptor(
        type: "BlogModule",
        summary: "A user's blogs with likes, refresh and paging.",
        parameters: [
            ParameterSpec("author", .userID, summary: "Whose blogs to show."),
            ParameterSpec("pageSize", .int, default: 10, range: 1...100, summary: "Blogs per page."),
            ParameterSpec("header", .string, default: "Blogs", summary: "The list's header."),
            ParameterSpec("emptyText", .string, default: "No blogs yet.", summary: "Shown when there are none."),
            ParameterSpec("moreTitle", .string, default: "Load more", summary: "The load-more button."),
            ParameterSpec("refreshTitle", .string, default: "Refresh", summary: "The refresh button."),
        ] + BlogWording.parameters,
        events: ["blog.open"])

    private let author: UserID
    private let pageSize: Int
    private let header: String
    private let emptyText: String
    private let moreTitle: String
    private let refreshTitle: String
    private let wording: BlogWording
    private let blogs: any BlogService
    private let context: ModuleContext
    private var likes: BlogLikes { BlogLikes(blogs: blogs, viewer: context.viewer.map { UserID($0) }) }

    /// The blogs shown.
    public private(set) var state: LoadState<[Blog]> = .idle
    /// Whether another page exists.
    public private(set) var hasMore = false
    /// How many blogs the author has, when the service says.
    public private(set) var total: Int?
    /// A message about the last failed action.
    public private(set) var notice: String?
    private var likesInFlight: Set<Int64> = []

    /// Creates the module from its parameters and service.
    public init(parameters: ModuleParameters, context: ModuleContext, blogs: any BlogService) throws {
        author = UserID(try parameters.string("author"))
        pageSize = try parameters.int("pageSize")
        header = try parameters.string("header")
        emptyText = try parameters.string("emptyText")
        moreTitle = try parameters.string("moreTitle")
        refreshTitle = try parameters.string("refreshTitle")
        wording = try BlogWording(parameters: parameters)
        self.blogs = blogs
        self.context = context
    }

    public func load(_ request: LoadRequest) async throws {
        let viewer = context.viewer.map { UserID($0) }
        switch request {
        case .initial, .refresh:
            if state.value == nil { state = .loading }
            let page = try await blogs.blogs(by: author, viewer: viewer, page: PageRequest(offset: 0, limit: pageSize))
            state = page.items.isEmpty ? .empty : .loaded(page.items)
            hasMore = page.hasMore
            total = page.total
            notice = nil
        case .nextPage:
            guard hasMore, let shown = state.value, !state.isBusy else { return }
            state = .paging(shown)
            await context.setNeedsRender()
            do {
                append(try await blogs.blogs(by: author, viewer: viewer, page: PageRequest(offset: shown.count, limit: pageSize)), to: shown)
            } catch {
                state = .loaded(shown)
                notice = "Couldn't load more: \(SceneryError.message(for: error))"
                throw error
            }
        }
    }

    /// Shows `page` after the blogs `shown` (leaving out any already there: a blog written
    /// meanwhile shifts the pages).
    private func append(_ page: Page<Blog>, to shown: [Blog]) {
        let known = Set(shown.map(\.id))
        state = .loaded(shown + page.items.filter { !known.contains($0.id) })
        hasMore = page.hasMore
        total = page.total ?? total
        notice = nil
    }

    /// One blog's row (selecting it sends `blog.open`).
    private func row(_ blog: Blog) -> ViewNode {
        BlogCellPresenter(blog: blog, wording: wording, canLike: context.viewer != nil).render()
            .selectable(sending: EventDescriptor("blog.open", payload: ["blog": .int(Int(blog.id))]))
    }

    /// Renders one row again (`blog.27`), so a like costs one row, not the list.
    public func render(_ id: NodeID) -> ViewNode? {
        guard id.rawValue.hasPrefix("blog."), let number = Int64(id.rawValue.dropFirst("blog.".count)),
            let blog = state.value?.first(where: { $0.id == number })
        else { return nil }
        return row(blog)
    }

    /// Fetches the blogs up to the end of `window` that are not loaded yet, in one request.
    public func load(window: RowWindow) async throws {
        guard hasMore, case .loaded(let shown) = state, shown.count < window.start + window.count else { return }
        let viewer = context.viewer.map { UserID($0) }
        let wanted = PageRequest(offset: shown.count, limit: window.start + window.count - shown.count)
        do {
            let page = try await blogs.blogs(by: author, viewer: viewer, page: wanted)
            // A refresh or a page may have landed meanwhile: add only to the list asked about.
            guard case .loaded(let current) = state, current.count == shown.count else { return }
            append(page, to: current)
        } catch {
            notice = "Couldn't load more: \(SceneryError.message(for: error))"
            throw error
        }
    }

    public func render() -> ViewNode { render(window: nil) }

    public func render(window: RowWindow) -> ViewNode { render(window: Optional(window)) }

    /// The list, whole or as a window: a window holds only its rows and the list's full
    /// size, and has no "Load more" (the host scrolls instead).
    private func render(window: RowWindow?) -> ViewNode {
        state.render(id: "blogs", loadingMessage: "Loading blogs…", emptyMessage: emptyText) { blogs in
            // A window holds the rows fetched so far (a fetch may have failed), sized as the whole list.
            let section = ViewNode.Section.windowed(
                id: "all", header: header, total: max(total ?? 0, blogs.count), available: blogs.count, window: window
            ) { row(blogs[$0]) }
            var children: [ViewNode] = [
                .button("refresh", title: refreshTitle, sends: EventDescriptor(SceneEvents.refresh, payload: ["module": .string(context.id.rawValue)])),
                .list("list", sections: [section]),
            ]
            if hasMore && window == nil {
                children.append(
                    .button("more", title: moreTitle, sends: EventDescriptor(SceneEvents.loadMore, payload: ["module": .string(context.id.rawValue)])))
            }
            if let notice { children.append(.text("notice", notice, role: .caption)) }
            return .stack("content", children)
        }
    }

    public func handle(_ event: Event) async -> EventDisposition {
        guard let (id, wanted) = BlogLikes.request(in: event) else { return .pass }
        guard let original = state.value?.first(where: { $0.id == id }), !likesInFlight.contains(id) else { return .handled }
        let liked = wanted ?? !original.likedByViewer
        likesInFlight.insert(id)
        defer { likesInFlight.remove(id) }
        replace(BlogLikes.toggled(original, liked: liked))
        let hadNotice = notice != nil
        notice = nil
        // Only the row changed (unless a notice appears or goes): re-render just the row.
        if hadNotice { await context.setNeedsRender() } else { await context.setNeedsRender(["blog.\(id)"]) }
        let (settled, failure) = await likes.write(liked, on: original)
        replace(settled)
        notice = failure
        if failure != nil { await context.setNeedsRender() } else { await context.setNeedsRender(["blog.\(id)"]) }
        return .handled
    }

    /// Puts a blog in place of the one with its id, in whatever the state holds now
    /// (a refresh may have happened while a like was in flight).
    private func replace(_ blog: Blog) {
        func swap(_ blogs: [Blog]) -> [Blog] { blogs.map { $0.id == blog.id ? blog : $0 } }
        switch state {
        case .loaded(let blogs): state = .loaded(swap(blogs))
        case .paging(let blogs): state = .paging(swap(blogs))
        default: break
        }
    }
}
