import Scenery

/// The wording of blog cells and lists; every piece is a module parameter, so a scene can
/// say "赞 %d" where another says "Likes: %d".
public struct BlogWording: Sendable, Hashable {
    public var likesFormat = "Likes: %d"
    public var authorFormat = "By %@"
    public var emptyAuthor = "Anonymous"
    public var untitled = "Untitled"
    public var likeTitle = "Like"
    public var unlikeTitle = "Unlike"
    /// Said to other people's open pages when someone likes a blog they show (%@ is its
    /// title); who liked it is not said.
    public var likedNotice = "New like on “%@”"
    /// Said to open pages when blogs are added to the list they show (%d is how many).
    public var newBlogsNotice = "New blogs: %d"

    public init() {}

    static let parameters: [ParameterSpec] = {
        let defaults = BlogWording()
        return [
            ParameterSpec("likesFormat", .string, default: .string(defaults.likesFormat), summary: "Like count (%d)."),
            ParameterSpec("authorFormat", .string, default: .string(defaults.authorFormat), summary: "Author line (%@ is the name)."),
            ParameterSpec("emptyAuthor", .string, default: .string(defaults.emptyAuthor), summary: "Author name when empty."),
            ParameterSpec("untitled", .string, default: .string(defaults.untitled), summary: "Title when empty."),
            ParameterSpec("likeTitle", .string, default: .string(defaults.likeTitle), summary: "The like button."),
            ParameterSpec("unlikeTitle", .string, default: .string(defaults.unlikeTitle), summary: "The unlike button."),
            ParameterSpec(
                "likedNotice", .string, default: .string(defaults.likedNotice), summary: "Said to open pages when someone likes a blog (%@ is its title)."),
            ParameterSpec(
                "newBlogsNotice", .string, default: .string(defaults.newBlogsNotice), summary: "Said to open pages when blogs are added (%d is how many)."),
        ]
    }()

    public init(parameters: ModuleParameters) throws {
        likesFormat = try parameters.string("likesFormat")
        authorFormat = try parameters.string("authorFormat")
        emptyAuthor = try parameters.string("emptyAuthor")
        untitled = try parameters.string("untitled")
        likeTitle = try parameters.string("likeTitle")
        unlikeTitle = try parameters.string("unlikeTitle")
        likedNotice = try parameters.string("likedNotice")
        newBlogsNotice = try parameters.string("newBlogsNotice")
    }
}
