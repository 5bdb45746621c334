import ProfileDemoDomain
import Scenery

/// The events the blog modules send, as values: names scene files use, payloads the
/// compiler checks.
///
/// ```json
/// { "on": "blog.open", "navigate": { "scene": "blog-detail", "args": { "blog": "$event.blog" } } }
/// ```
public enum BlogEvents {
    /// What `blog.like` carries: the blog, and the state wanted (absent: the opposite of now).
    public struct Like: Codable, Sendable, Hashable {
        public var blog: BlogID
        public var liked: Bool?

        public init(blog: BlogID, liked: Bool?) {
            self.blog = blog
            self.liked = liked
        }
    }

    /// What `blog.open` carries: the blog.
    public struct Open: Codable, Sendable, Hashable {
        public var blog: BlogID

        public init(blog: BlogID) {
            self.blog = blog
        }
    }

    /// A like button: handled in the module (optimistically), never bubbling.
    public static let like = EventKind("blog.like", payload: Like.self)
    /// Selecting a blog's row: bubbles for the scene to navigate.
    public static let open = EventKind("blog.open", payload: Open.self)
}
