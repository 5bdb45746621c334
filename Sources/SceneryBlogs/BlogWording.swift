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
        ]
    }()

    public init(parameters: ModuleParameters) throws {
        likesFormat = try parameters.string("likesFormat")
        authorFormat = try parameters.string("authorFormat")
        emptyAuthor = try parameters.string("emptyAuthor")
        untitled = try parameters.string("untitled")
        likeTitle = try parameters.string("likeTitle")
        unlikeTitle = try parameters.string("unlikeTitle")
    }
}
