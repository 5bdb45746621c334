import ProfileDemoDomain
import Scenery

/// The node ids of a blog's cell, built and read in one place: the row `blog.27` and its
/// parts `blog.27.title`, `blog.27.byline`, `blog.27.likes`, `blog.27.like` …, ids scene
/// authors and tests see (qualified by the module: `blogs/blog.27.like`).
public struct BlogNodeID: Sendable, Hashable {
    /// The blog.
    public var blog: BlogID

    /// The ids of a blog's cell.
    public init(blog: BlogID) {
        self.blog = blog
    }

    /// The blog a row's id names (`blog.27` → 27), or `nil` for any other id.
    public init?(row id: NodeID) {
        // The text read once: a qualified id joins its parts each time it is asked for.
        let text = id.rawValue
        guard text.hasPrefix(Self.prefix), let blog = BlogID(text.dropFirst(Self.prefix.count)) else { return nil }
        self.blog = blog
    }

    /// The row: `blog.27`.
    public var row: NodeID { NodeID(Self.prefix + blog.description) }

    /// A part of the row: `blog.27.title`.
    public func part(_ name: Part) -> NodeID { NodeID("\(row.rawValue).\(name.rawValue)") }

    /// The parts of a blog's cell.
    public enum Part: String, Sendable, CaseIterable {
        case title, byline, body, actions, likes, like
        /// What went wrong with the viewer's last like of this blog, next to the button.
        case failure
    }

    private static let prefix = "blog."
}
