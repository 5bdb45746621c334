import Scenery

/// The wording of blog cells and lists; every piece is a message parameter, so a scene (or
/// a translation) can say "赞 {count}" where another says "Likes: {count}".
public struct BlogWording: Sendable, Hashable {
    /// The like count (`{count}`).
    public var likesFormat: LocalizedMessage = "Likes: {count}"
    /// The author line (`{name}`).
    public var authorFormat: LocalizedMessage = "By {name}"
    public var emptyAuthor = "Anonymous"
    public var untitled = "Untitled"
    public var likeTitle = "Like"
    public var unlikeTitle = "Unlike"
    /// Said to other people's open pages when someone likes a blog they show (`{title}`);
    /// who liked it is not said.
    public var likedNotice: LocalizedMessage = "New like on “{title}”"
    /// Said to open pages when blogs are added to the list they show (`{count}`, how many).
    public var newBlogsNotice: LocalizedMessage = "New blogs: {count}"

    public init() {}

    static let parameters: [ParameterSpec] = {
        let defaults = BlogWording()
        let count = [MessageArgumentSpec("count", .number, summary: "How many.")]
        return [
            .message("likesFormat", default: defaults.likesFormat.message.source, arguments: count, summary: "Like count."),
            .message(
                "authorFormat", default: defaults.authorFormat.message.source,
                arguments: [MessageArgumentSpec("name", .text, summary: "The author's name, or emptyAuthor.")], summary: "Author line."),
            .message("emptyAuthor", default: defaults.emptyAuthor, summary: "Author name when empty."),
            .message("untitled", default: defaults.untitled, summary: "Title when empty."),
            .message("likeTitle", default: defaults.likeTitle, summary: "The like button."),
            .message("unlikeTitle", default: defaults.unlikeTitle, summary: "The unlike button."),
            .message(
                "likedNotice", default: defaults.likedNotice.message.source,
                arguments: [MessageArgumentSpec("title", .text, summary: "The blog's title.")], summary: "Said to open pages when someone likes a blog."),
            .message("newBlogsNotice", default: defaults.newBlogsNotice.message.source, arguments: count, summary: "Said to open pages when blogs are added."),
        ]
    }()

    public init(parameters: ModuleParameters) throws {
        likesFormat = try parameters.message("likesFormat")
        authorFormat = try parameters.message("authorFormat")
        emptyAuthor = try parameters.text("emptyAuthor")
        untitled = try parameters.text("untitled")
        likeTitle = try parameters.text("likeTitle")
        unlikeTitle = try parameters.text("unlikeTitle")
        likedNotice = try parameters.message("likedNotice")
        newBlogsNotice = try parameters.message("newBlogsNotice")
    }
}
