import ProfileDomain
import Scenery
import SceneryLive

/// The owner's drafts, most recently edited first.
///
/// Drafts are private. The module refuses to load for anyone but the owner by itself —
/// before it asks its service — so no scene file, argument or navigation can show them to
/// someone else; and its descriptor marks `owner` as owner-only, so validation rejects a
/// scene variant that could place it before another viewer.
///
/// ```json
/// { "id": "drafts", "type": "DraftModule", "params": { "owner": "$user" } }
/// ```
public actor DraftModule: Module {
    public static let descriptor = ModuleDescriptor(
        type: "DraftModule",
        summary: "The owner's unpublished drafts (owner only).",
        parameters: [
            ParameterSpec("owner", .userID, summary: "Whose drafts; must be the viewer."),
            ParameterSpec("pageSize", .int, default: 20, range: 1...100, summary: "Drafts per page."),
            ParameterSpec("header", .string, default: "Drafts", summary: "The list's header."),
            ParameterSpec("emptyText", .string, default: "No drafts.", summary: "Shown when there are none."),
            ParameterSpec("untitled", .string, default: "Untitled draft", summary: "Title when empty."),
            ParameterSpec("editedFormat", .string, default: "Edited %@", summary: "Last-edited line (%@ is the date)."),
            ParameterSpec("moreTitle", .string, default: "Load more", summary: "The load-more button."),
        ],
        ownerOnlyParameter: "owner")

    /// The error a non-owner gets.
    public static let privacyMessage = "Drafts are private: only their owner can see them."

    private let owner: UserID
    private let header: String
    private let emptyText: String
    private let untitled: String
    private let editedFormat: String
    private let moreTitle: String
    private let drafts: any DraftService
    private let context: ModuleContext

    private var list: PagedList<Draft>
    /// The drafts shown.
    public var state: LoadState<[Draft]> { list.state }
    /// Whether another page exists.
    public var hasMore: Bool { list.hasMore }
    /// A message about the last failed action, or saying that what is shown may be out of
    /// date (a live change could not be fetched; it is tried again).
    public var notice: String? { noticeLine.text }
    private var noticeLine = ModuleNotice()

    /// The drafts' live subscription, while the module is visible (to its owner only).
    private let live: LiveChanges<ProfileChange>

    public init(parameters: ModuleParameters, context: ModuleContext, drafts: any DraftService, changes: (any ChangeFeed<ProfileChange>)? = nil) throws {
        live = LiveChanges(changes)
        owner = UserID(try parameters.string("owner"))
        list = PagedList(pageSize: try parameters.int("pageSize"))
        header = try parameters.string("header")
        emptyText = try parameters.string("emptyText")
        untitled = try parameters.string("untitled")
        editedFormat = try parameters.string("editedFormat")
        moreTitle = try parameters.string("moreTitle")
        self.drafts = drafts
        self.context = context
    }

    /// Whether the viewer may see these drafts.
    private var viewerIsOwner: Bool { context.viewer == owner.rawValue }

    public func load(_ request: LoadRequest) async throws {
        guard viewerIsOwner, let viewer = context.viewer else {
            throw ProfileError.notPermitted(Self.privacyMessage)
        }
        guard let fetch = list.begin(request) else { return }
        if fetch.showsIndicator { await context.setNeedsRender() }
        try await run(fetch, viewer: UserID(viewer))
    }

    private func run(_ fetch: PagedList<Draft>.Fetch, viewer: UserID) async throws {
        do {
            let request = list.pageRequest(for: fetch, after: PageCursor.drafts(after:))
            let page = try await drafts.drafts(of: owner, viewer: viewer, page: request)
            list.finish(fetch, items: page.items, hasMore: page.hasMore, total: page.total)
        } catch {
            list.fail(fetch)
            throw error
        }
    }

    /// Follows the owner's drafts while visible, for the owner alone: nobody else's page
    /// even subscribes to them.
    /// Shown again after being hidden, it fetches the drafts again.
    public func appear() async {
        guard viewerIsOwner else { return }
        let missed = live.follow([.drafts(of: owner)]) { [weak self] _ in await self?.draftsChanged() }
        if missed { await draftsChanged() }
    }

    public func disappear() async { live.stop() }

    /// The owner's drafts changed (another tab, an import): every row shown is fetched
    /// again; if that fails, the drafts shown stay, with a notice.
    private func draftsChanged() async {
        guard state.hasResult else { return }
        do {
            try await run(list.reload(), viewer: owner)
            noticeLine.clearStale()
        } catch {
            noticeLine.showStale(error)
            live.retry(.drafts(of: owner))
        }
        await context.setNeedsRender()
    }

    public func render() -> ViewNode {
        // Belt and braces: whatever the state, a non-owner sees no draft.
        guard viewerIsOwner else { return .error("drafts", Self.privacyMessage) }
        return state.render(id: "drafts", loadingMessage: "Loading drafts…", emptyMessage: emptyText) { drafts in
            // Rows are not selectable: there is no draft editor to open (a row that sends an
            // event nothing handles would be a control that does nothing).
            let rows = drafts.map { draft in DraftCellPresenter(draft: draft, untitled: untitled, editedFormat: editedFormat).render() }
            var children: [ViewNode] = [.list("list", sections: [.init(id: "all", header: header, rows: rows)])]
            if let more = list.moreButton(title: moreTitle, module: context.id) { children.append(more) }
            if let notice { children.append(.text("notice", notice, role: .caption)) }
            return .stack("content", children)
        }
    }
}
