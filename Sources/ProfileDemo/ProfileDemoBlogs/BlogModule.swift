import ProfileDemoDomain
import Scenery
import SceneryLive

/// An author's blogs, newest first, paged, with likes.
///
/// A like updates the cell at once and rolls back if the write fails. Selecting a cell
/// sends `blog.open` with the blog's id for the scene to navigate. Refresh (shown only
/// without a change feed, or while a change could not be fetched) and "Load more" are the
/// runtime's `scenery.refresh` and `scenery.loadMore`.
///
/// When a host shows a window of the list (`SceneInstance.setWindow(_:for:)`, a browser
/// scrolling), the module fetches the rows the window reaches and renders only those, with
/// the list's full size; the host scrolls instead of asking for more.
///
/// ```json
/// { "id": "blogs", "type": "BlogModule", "params": { "author": "$user", "pageSize": 10, "likesFormat": "赞 {count}" } }
/// ```
public actor BlogModule: Module {
    public static let descriptor = ModuleDescriptor(
        type: "BlogModule",
        summary: "A user's blogs with likes, refresh and paging.",
        parameters: [
            ParameterSpec("author", .userID, summary: "Whose blogs to show."),
            ParameterSpec("pageSize", .int, default: 10, range: 1...100, summary: "Blogs per page."),
            .message("header", default: "Blogs", summary: "The list's header."),
            .message("emptyText", default: "No blogs yet.", summary: "Shown when there are none."),
            .message(
                "ownEmptyText", default: "No blogs yet: publish one from the drafts on your profile.",
                summary: "Shown to the author when there are none: what they can do."),
            .message("moreTitle", default: "Load more", summary: "The load-more button."),
            .message("refreshTitle", default: "Refresh", summary: "The refresh button."),
        ] + BlogWording.parameters,
        sends: [BlogEvents.open],
        countsRowImpressions: true)

    private let author: UserID
    private let header: String
    private let emptyText: String
    /// What the author sees of an empty list: how to fill it.
    private let ownEmptyText: String
    private let moreTitle: String
    private let refreshTitle: String
    private let wording: BlogWording
    /// The wording's number among those whose rows are shared (``rows``), if it has one.
    private let wordingNumber: Int?
    private let blogs: any BlogService
    private let context: ModuleContext
    /// The module runs on its page's executor: its calls to and from the scene are not hops.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }

    private var list: PagedList<Blog>
    /// The blogs shown.
    public var state: LoadState<[Blog]> { list.state }
    /// Whether another page exists.
    public var hasMore: Bool { list.hasMore }
    /// How many blogs the author has, when the service says.
    public var total: Int? { list.total }
    /// A message about the last failed action, or saying that what is shown may be out of
    /// date (a live change could not be fetched; it is tried again).
    public var notice: String? { loadFailure ?? liveRows.staleNotice }
    /// Why the last "Load more" failed.
    private var loadFailure: String?
    /// The viewer's last like that could not be saved, said under its row's button.
    private var failedLike: (blog: BlogID, message: String)?
    /// The rows, kept true while the module is visible (each blog it holds, and the
    /// author's list); their likes.
    private let liveRows: LiveQuery<BlogModule, ProfileChange>
    private var isVisible = false
    /// The rows the host shows, when it shows a window of the list.
    private var window: RowWindow?

    /// Creates the module from its parameters and service.
    public init(parameters: ModuleParameters, context: ModuleContext, blogs: any BlogService, changes: (any ChangeFeed<ProfileChange>)? = nil) throws {
        liveRows = LiveQuery(changes, context: context, touches: Self.touched) { module, change in try await module.refresh(change) }
        author = UserID(try parameters.string("author"))
        list = PagedList(pageSize: try parameters.int("pageSize"))
        header = try parameters.text("header")
        emptyText = try parameters.text("emptyText")
        ownEmptyText = try parameters.text("ownEmptyText")
        moreTitle = try parameters.text("moreTitle")
        refreshTitle = try parameters.text("refreshTitle")
        wording = try BlogWording(parameters: parameters)
        wordingNumber = Self.number(of: wording)
        self.blogs = blogs
        self.context = context
    }

    public func load(_ request: LoadRequest) async throws {
        guard let fetch = list.begin(request) else { return }
        if fetch.showsIndicator { await context.setNeedsRender() }
        try await run(fetch)
    }

    /// Fetches the blogs up to the end of `window` that are not loaded yet, in one request.
    public func load(window: RowWindow) async throws {
        self.window = window
        await followRows()
        guard let fetch = list.fetch(reaching: window) else { return }
        try await run(fetch)
    }

    private func run(_ fetch: PagedList<Blog>.Fetch) async throws {
        do {
            // The next page of what is shown: after its last blog (keyset), so that blogs
            // added meanwhile do not repeat rows; anything else by position.
            let request = list.pageRequest(for: fetch, after: PageCursor.blogs(after:))
            let page = try await blogs.blogs(by: author, viewer: context.viewer.map { UserID($0) }, page: request)
            list.finish(fetch, items: page.items, hasMore: page.hasMore, total: page.total)
            loadFailure = nil
            await followRows()
        } catch {
            list.fail(fetch)
            if !fetch.replaces {
                loadFailure = "Couldn't load more: \(SceneryError.messageForViewers(of: error))"
            }
            throw error
        }
    }

    // MARK: Live

    /// Follows the blogs it holds while visible: a like by anyone updates that row. Shown
    /// again after being hidden, it fetches its rows again (they may have changed).
    public func appear() async {
        isVisible = true
        await followRows()
    }

    public func disappear() async {
        isVisible = false
        liveRows.stop()
    }

    /// Follows the author's list (a blog added or removed) and exactly the rows shown now:
    /// the window's, or every row loaded.
    private func followRows() async {
        guard isVisible, state.hasResult else { return }
        let held = state.value ?? []
        var shown = held[...]
        if let window {
            shown = held[min(window.start, held.count)..<min(window.start + window.count, held.count)]
        }
        await liveRows.follow(Set(shown.map { ProfileChange.blog($0.id) }).union([.blogs(of: author)]), for: self)
    }

    /// A row's change is fetched as that row alone; any other (the list) as the list whole.
    private static func touched(by change: ProfileChange) -> Set<ProfileChange>? {
        if case .blog = change { [change] } else { nil }
    }

    /// Something it shows changed: one blog is fetched again as this viewer sees it and its
    /// row rendered; a changed list (or a feed that lost track) is fetched again whole.
    private func refresh(_ change: ProfileChange) async throws {
        switch change {
        case .blog(let id): try await refetch(id)
        case .blogs: try await reloadList(announcingNewBlogs: true)
        case .everything: try await reloadList()
        default: break
        }
    }

    /// Fetches the list again (and what the window reaches).
    private func reloadList(announcingNewBlogs: Bool = false) async throws {
        let held = Set((state.value ?? []).map(\.id))
        try await run(list.reload())
        if let window, let more = list.fetch(reaching: window) { try await run(more) }
        // Blogs someone else added (a draft published elsewhere) are said on the page.
        let added = (state.value ?? []).filter { !held.contains($0.id) }.count
        if announcingNewBlogs, state.hasResult, added > 0 {
            await context.setNeedsRender(announcing: wording.newBlogsNotice(["count": .integer(added)]))
        } else {
            await context.setNeedsRender()
        }
    }

    /// Fetches one blog and shows it in its row.
    private func refetch(_ id: BlogID) async throws {
        guard list.item(withID: id) != nil else { return }
        let fresh = try await blogs.blog(id, viewer: context.viewer.map { UserID($0) })
        guard let held = list.item(withID: id), fresh != held else { return }
        list.replace(fresh)
        if fresh.likes > held.likes {
            // Someone liked it: said on the page, without saying who.
            let title = fresh.title.isEmpty ? wording.untitled : fresh.title
            await context.setNeedsRender([BlogNodeID(blog: id).row], announcing: wording.likedNotice(["title": .text(title)]))
        } else {
            await context.setNeedsRender([BlogNodeID(blog: id).row])
        }
    }

    /// One blog's row (selecting it sends `blog.open`), shared with every page whose row
    /// reads the same (``rows``).
    private func row(_ blog: Blog) -> ViewNode {
        let presenter = BlogCellPresenter(
            blog: blog, wording: wording, canLike: context.viewer != nil, failure: failedLike?.blog == blog.id ? failedLike?.message : nil)
        func render() -> ViewNode {
            presenter.render().selectable(sending: BlogEvents.open.descriptor(BlogEvents.Open(blog: blog.id)))
        }
        guard let wordingNumber else { return render() }
        return Self.rows.node(
            for: RowInput(blog: blog, wording: wordingNumber, canLike: presenter.canLike, failure: presenter.failure), render: render)
    }

    /// Renders one row again (`blog.27`), so a like costs one row, not the list.
    public func render(_ id: NodeID) -> ViewNode? {
        guard let number = BlogNodeID(row: id)?.blog, let blog = list.item(withID: number) else { return nil }
        return row(blog)
    }

    /// For the inspector: the list, what it follows, whether it is shown, the window and
    /// the blog whose like could not be saved.
    public func inspectableState() -> [String: JSONValue] {
        var facts = list.inspectableState.merging(liveRows.inspectableState) { list, _ in list }
        facts["visible"] = .bool(isVisible)
        if let failedLike { facts["failedLike"] = .string("\(failedLike.blog)") }
        return facts
    }

    public func render() -> ViewNode { render(window: nil) }

    public func render(window: RowWindow) -> ViewNode { render(window: Optional(window)) }

    /// The list, whole or as a window: a window holds only its rows and the list's full
    /// size, and has no "Load more" (the host scrolls instead).
    private func render(window: RowWindow?) -> ViewNode {
        let empty = context.viewer == author.rawValue ? ownEmptyText : emptyText
        return state.render(id: "blogs", loadingMessage: "Loading blogs…", emptyMessage: empty) { _ in
            let section = list.section(id: "all", header: header, window: window, row: row)
            var children: [ViewNode] = [.list("list", sections: [section])]
            if let more = list.moreButton(title: moreTitle, module: context.id, window: window) { children.append(more) }
            if let notice { children.append(.text("notice", notice, role: .caption)) }
            // A live list keeps itself true: Refresh only where nothing tells it of changes,
            // or while a change could not be fetched.
            if !liveRows.isLive || liveRows.staleNotice != nil {
                children.append(.button("refresh", title: refreshTitle, sends: EventDescriptor(.refresh(context.id))))
            }
            return .stack("content", children)
        }
    }

    public func handle(_ event: Event) async -> EventDisposition {
        guard let (id, wanted) = BlogLikes.request(in: event) else { return .pass }
        guard let original = list.item(withID: id), !liveRows.isWriting(.blog(id)) else { return .handled }
        let liked = wanted ?? !original.likedByViewer
        let writer = BlogLikes(blogs: blogs, viewer: context.viewer.map { UserID($0) })
        // Its own like does not come back to it; another viewer's while it wrote is fetched
        // after, showing the stored count.
        await liveRows.write(.blog(id), for: self) {
            list.replace(BlogLikes.toggled(original, liked: liked))
            // A failure shown under another row goes: that row is rendered again too.
            let cleared = failedLike.map { [BlogNodeID(blog: $0.blog).row] } ?? []
            failedLike = nil
            await context.setNeedsRender(cleared + [BlogNodeID(blog: id).row])
            let (settled, failure) = await writer.write(liked, on: original)
            list.replace(settled)
            // A failure is said under the row's button, not at the foot of the list.
            failedLike = failure.map { (id, $0) }
            await context.setNeedsRender([BlogNodeID(blog: id).row])
        }
        return .handled
    }
}
