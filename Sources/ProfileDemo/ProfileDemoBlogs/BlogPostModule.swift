import ProfileDemoDomain
import Scenery
import SceneryLive

/// One blog in full, with its like button: the target of `blog.open` navigation.
///
/// Selecting the author line sends `user.open` with the author's id.
///
/// ```json
/// { "id": "post", "type": "BlogPostModule", "params": { "blog": "$blog" } }
/// ```
public actor BlogPostModule: Module {
    public static let descriptor = ModuleDescriptor(
        type: "BlogPostModule",
        summary: "One blog in full, with likes.",
        parameters: [ParameterSpec("blog", .int, summary: "The blog's id.")] + BlogWording.parameters,
        sends: [UserEvents.open])

    private let id: BlogID
    private let wording: BlogWording
    private let blogs: any BlogService
    private let context: ModuleContext
    /// The module runs on its page's executor: its calls to and from the scene are not hops.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }

    /// The blog shown.
    public private(set) var state: LoadState<Blog> = .idle
    /// Says that what is shown may be out of date (a live change could not be fetched; it
    /// is tried again).
    public var notice: String? { liveBlog.staleNotice }
    /// The viewer's last like that could not be saved, said under the like button.
    private var likeFailure: String?
    /// The blog, kept true while the module is visible; its likes.
    private let liveBlog: LiveQuery<BlogPostModule, ProfileChange>

    public init(parameters: ModuleParameters, context: ModuleContext, blogs: any BlogService, changes: (any ChangeFeed<ProfileChange>)? = nil) throws {
        liveBlog = LiveQuery(changes, context: context) { module, _ in try await module.fetchBlog() }
        id = BlogID(Int64(try parameters.int("blog")))
        wording = try BlogWording(parameters: parameters)
        self.blogs = blogs
        self.context = context
    }

    public func load(_ request: LoadRequest) async throws {
        if state.value == nil { state = .loading }
        state = .loaded(try await blogs.blog(id, viewer: context.viewer.map { UserID($0) }))
    }

    /// Follows the blog's changes (likes by anyone) while visible; shown again after being
    /// hidden, it fetches the blog again.
    public func appear() async { await liveBlog.follow([.blog(id)], for: self) }

    public func disappear() async { liveBlog.stop() }

    private func fetchBlog() async throws {
        guard state.value != nil else { return }
        let fresh = try await blogs.blog(id, viewer: context.viewer.map { UserID($0) })
        guard fresh != state.value else { return }
        state = .loaded(fresh)
        await context.setNeedsRender()
    }

    /// The page is about this blog: its title (or the wording for an untitled one).
    public func pageTitle() -> String? {
        state.value.map { BlogCellPresenter(blog: $0, wording: wording, canLike: false).title }
    }

    public func render() -> ViewNode {
        state.render(id: "post") { blog in
            let cell = BlogCellPresenter(blog: blog, wording: wording, canLike: context.viewer != nil, failure: likeFailure).render(showsBody: true)
            let id = BlogNodeID(blog: blog.id)
            var children = cell.children.map { node -> ViewNode in
                switch node.id {
                case id.part(.byline):
                    node.selectable(sending: UserEvents.open.descriptor(.init(user: blog.author)))
                case id.part(.title):
                    // Alone on its page, the blog's title is the page's main heading, not a row's.
                    if case .text(let title, _) = node.kind { ViewNode.text(node.id, title, role: .title) } else { node }
                default:
                    node
                }
            }
            if let notice { children.append(.text("notice", notice, role: .caption)) }
            return .stack("content", children)
        }
    }

    public func handle(_ event: Event) async -> EventDisposition {
        guard let (_, wanted) = BlogLikes.request(in: event) else { return .pass }
        guard let original = state.value, !liveBlog.isWriting(.blog(id)) else { return .handled }
        let liked = wanted ?? !original.likedByViewer
        let likes = BlogLikes(blogs: blogs, viewer: context.viewer.map { UserID($0) })
        // Its own like does not come back to it; another viewer's while it wrote does.
        await liveBlog.write(.blog(id), for: self) {
            state = .loaded(BlogLikes.toggled(original, liked: liked))
            likeFailure = nil
            await context.setNeedsRender()
            let (settled, failure) = await likes.write(liked, on: original)
            state = .loaded(settled)
            likeFailure = failure  // said under the like button, where the person tapped
            await context.setNeedsRender()
        }
        return .handled
    }
}
