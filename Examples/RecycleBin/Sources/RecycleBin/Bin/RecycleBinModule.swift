import ProfileDemoDomain
import Scenery

/// The owner's deleted blogs, each with a Restore button.
///
/// Owner only, twice over: the module refuses to load for anyone else, and its descriptor
/// marks `owner` as owner-only, so validation rejects a scene that could show it to another
/// viewer. Restoring sends `bin.restore` (the scene may ask first); the module restores
/// when the scene lets it through.
///
/// ```json
/// { "id": "bin", "type": "RecycleBinModule", "params": { "owner": "$user" } }
/// ```
public actor RecycleBinModule: Module {
    /// What `bin.restore` carries: the blog, and its title for the scene's question.
    public struct Restore: Codable, Sendable, Hashable {
        public var blog: Int64
        public var title: String

        public init(blog: Int64, title: String) {
            self.blog = blog
            self.title = title
        }
    }

    /// Sent by a row's Restore button; restored here once the scene lets it through.
    public static let restore = EventKind("bin.restore", payload: Restore.self)

    public static let descriptor = ModuleDescriptor(
        type: "RecycleBinModule",
        summary: "The owner's deleted blogs, with Restore (owner only).",
        parameters: [
            ParameterSpec("owner", .userID, summary: "Whose bin; must be the viewer."),
            .message("header", default: "Recycle bin", summary: "The list's header."),
            .message("emptyText", default: "The bin is empty.", summary: "Shown when nothing is in it."),
            .message("restoreTitle", default: "Restore", summary: "The restore button."),
            .message(
                "deletedFormat", default: "Deleted {date}", arguments: [MessageArgumentSpec("date", .text, summary: "When it was deleted.")],
                summary: "The deleted line."),
        ],
        sends: [restore],
        performs: [restore],
        ownerOnlyParameter: "owner",
        // Only the bin's owner may restore, whatever a scene or a forged message says: the
        // router refuses it to anyone else before perform(_:) runs.
        ownerOnlyActions: [restore.name: "owner"])

    /// The error a non-owner gets.
    public static let privacyMessage = "The recycle bin is private: only its owner can see it."

    private let owner: UserID
    private let header: String
    private let emptyText: String
    private let restoreTitle: String
    private let deletedFormat: LocalizedMessage
    private let bin: any RecycleBinService
    private let context: ModuleContext
    /// The module runs on its page's executor: its calls to and from the scene are not hops.
    public nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }
    private var state: LoadState<[DeletedBlog]> = .idle
    private var restoreFailure: String?

    public init(parameters: ModuleParameters, context: ModuleContext, bin: any RecycleBinService) throws {
        owner = UserID(try parameters.string("owner"))
        header = try parameters.text("header")
        emptyText = try parameters.text("emptyText")
        restoreTitle = try parameters.text("restoreTitle")
        deletedFormat = try parameters.message("deletedFormat")
        self.bin = bin
        self.context = context
    }

    public func load(_ request: LoadRequest) async throws {
        guard let viewer = context.viewer, viewer == owner.rawValue else {
            throw ProfileError.notPermitted(Self.privacyMessage)
        }
        if request == .nextPage { return }
        state = .loading
        do {
            let blogs = try await bin.deletedBlogs(of: owner, viewer: UserID(viewer))
            state = blogs.isEmpty ? .empty : .loaded(blogs)
        } catch {
            state = .failed(SceneryError.message(for: error))
            throw error
        }
    }

    public func render() -> ViewNode {
        guard context.viewer == owner.rawValue else { return .error("bin", Self.privacyMessage) }
        return state.render(id: "bin", loadingMessage: "Opening the bin…", emptyMessage: emptyText) { blogs in
            let rows = blogs.map { blog in
                ViewNode.stack(
                    "row.\(blog.id)", axis: .horizontal,
                    [
                        .text("row.\(blog.id).title", blog.title, role: .headline),
                        .text("row.\(blog.id).deleted", deletedFormat(["date": .text(DisplayDate.string(from: blog.deletedAt))]), role: .caption),
                        .button(
                            "row.\(blog.id).restore", title: restoreTitle,
                            sends: Self.restore.descriptor(Restore(blog: blog.id, title: blog.title))),
                    ])
            }
            var children: [ViewNode] = [.list("list", sections: [.init(id: "deleted", header: header, rows: rows)])]
            if let restoreFailure { children.append(.text("failure", restoreFailure, role: .caption)) }
            return .stack("content", children)
        }
    }

    /// Restores the blog once the scene let `bin.restore` through: it leaves the list at once.
    /// - Throws: The bin's error, after showing it under the list (the route says the
    ///   restore failed, and the host never hears of it).
    public func perform(_ event: Event) async throws {
        guard let restore = try? Self.restore.payload(of: event), case .loaded(let blogs) = state else { return }
        do {
            try await bin.restore(restore.blog, owner: owner)
            let left = blogs.filter { $0.id != restore.blog }
            state = left.isEmpty ? .empty : .loaded(left)
            restoreFailure = nil
        } catch {
            restoreFailure = "Couldn't restore: \(SceneryError.message(for: error))"
            await context.setNeedsRender()
            throw error
        }
        await context.setNeedsRender()
    }
}
