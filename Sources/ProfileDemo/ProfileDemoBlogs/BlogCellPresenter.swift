import Foundation
import ProfileDemoDomain
import Scenery

/// What one blog cell shows, formatted: pure values, testable without rendering (the
/// seed's BlogCellHelper / BlogCellPresenter).
///
/// ```swift
/// let cell = BlogCellPresenter(blog: blog, wording: wording, canLike: true)
/// cell.likes        // "Likes: 12", or "赞 12" with the Chinese wording
/// cell.author       // "By Alice Liddell"
/// ```
public struct BlogCellPresenter: Sendable, Hashable {
    public let blog: Blog
    public let wording: BlogWording
    /// Whether the viewer may like (signed in).
    public let canLike: Bool
    /// What went wrong with the viewer's last like of this blog, shown next to its button
    /// (and announced); `nil` when nothing did.
    public let failure: String?

    public init(blog: Blog, wording: BlogWording, canLike: Bool, failure: String? = nil) {
        self.blog = blog
        self.wording = wording
        self.canLike = canLike
        self.failure = failure
    }

    public var title: String {
        let title = blog.title.trimmingCharacters(in: .whitespacesAndNewlines)
        return title.isEmpty ? wording.untitled : title
    }

    public var author: String {
        let name = blog.authorName.trimmingCharacters(in: .whitespacesAndNewlines)
        return wording.authorFormat(["name": .text(name.isEmpty ? wording.emptyAuthor : name)])
    }

    public var likes: String { wording.likesFormat(["count": .integer(blog.likes)]) }
    public var date: String { DisplayDate.string(from: blog.createdAt) }

    /// The like button's title, or `nil` when the viewer cannot like.
    public var likeButtonTitle: String? {
        guard canLike else { return nil }
        return blog.likedByViewer ? wording.unlikeTitle : wording.likeTitle
    }

    /// The body shortened for a list.
    public var excerpt: String {
        blog.body.count <= 120 ? blog.body : String(blog.body.prefix(119)) + "…"
    }

    /// The cell: title, author and date, excerpt, likes with the like button; selecting it
    /// sends `blog.open` with the blog's id.
    public func render(showsBody: Bool = false) -> ViewNode {
        let id = BlogNodeID(blog: blog.id)
        var likeLine: [ViewNode] = [.text(id.part(.likes), likes, role: .caption)]
        if let title = likeButtonTitle {
            likeLine.append(
                .button(
                    id.part(.like), title: title,
                    sends: BlogEvents.like.descriptor(BlogEvents.Like(blog: blog.id, liked: !blog.likedByViewer)),
                    style: .secondary))  // a quiet control beside its count: every row has one
        }
        var parts: [ViewNode] = [
            .text(id.part(.title), title, role: .headline),
            .text(id.part(.byline), "\(author) · \(date)", role: .caption),
            .text(id.part(.body), showsBody ? blog.body : excerpt),
            .stack(id.part(.actions), axis: .horizontal, likeLine),
        ]
        // Where the person tapped: the button shows the stored state again, and this says why.
        if let failure { parts.append(.text(id.part(.failure), failure, role: .status)) }
        return ViewNode.stack(id.row, parts)
    }
}
