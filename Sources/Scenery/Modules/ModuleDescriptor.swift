/// Everything a scene file and its validator need to know about a module type.
///
/// ```swift
/// static let descriptor = ModuleDescriptor(
///     type: "BlogModule",
///     summary: "A user's blogs, with likes and paging.",
///     parameters: [
///         .init("author", .userID, summary: "Whose blogs to show."),
///         .init("pageSize", .int, default: 10, summary: "Blogs per page."),
///         .message("likesFormat", default: "Likes: {count}", arguments: [MessageArgumentSpec("count", .number)]),
///     ],
///     events: ["blog.open"])
/// ```
public struct ModuleDescriptor: Sendable, Hashable {
    /// The name scene files use in `"type"`.
    public var type: String
    /// One sentence: what the module shows.
    public var summary: String
    /// The parameters a scene file may or must give.
    public var parameters: [ParameterSpec]
    /// The names of the events the module lets bubble to its scene. Scene-file event
    /// rules may only name these (or the runtime's own `SceneEvents`).
    public var events: Set<String>
    /// The events among ``events`` that the module acts on itself once the scene lets them
    /// through (in ``Module/perform(_:)``): a follow, an accepted friend request. The others
    /// only announce something (a row was selected) and need a scene rule or the host to
    /// handle them; validation warns about those that have neither.
    public var defaultActions: Set<String>
    /// The payload keys of the events among ``events`` whose payloads are declared (typed
    /// events, `sends:`), by event name: validation checks a rule's `$event.key` and
    /// `event.key` against them.
    public var payloadKeys: [String: Set<String>] = [:]
    /// Whether the module may only be shown to the user named by one of its parameters
    /// (``ownerOnlyParameter``). Validation rejects scene variants that could show it to
    /// anyone else.
    public var ownerOnlyParameter: String?
    /// Actions only one user may take, by event name: the `userID` parameter naming that
    /// user (deleting a blog on a list everyone sees: `["blog.delete": "author"]`). The
    /// router refuses such an event for anyone else before ``Module/perform(_:)`` or the host
    /// sees it, whatever the scene's rules say (`module blogs: refused: …`), so neither the
    /// scene file nor a forged message can take it for someone else.
    public var ownerOnlyActions: [String: String] = [:]
    /// Whether the rows of the module's lists count impressions of their own (a blog seen
    /// in a feed), besides the module's. Hosts report them; the scene counts each row once
    /// per page session. See <doc:Experiments>.
    public var countsRowImpressions = false
    /// The module's version, starting at 1: raise it when the module gains parameters or
    /// behaviour that scene files may come to rely on. A scene file delivered to apps already
    /// installed names the lowest version it works with in `requires` (the scene file's `requires`).
    public var version: Int

    /// Creates a descriptor.
    public init(
        type: String,
        summary: String,
        version: Int = 1,
        parameters: [ParameterSpec] = [],
        events: Set<String> = [],
        defaultActions: Set<String> = [],
        ownerOnlyParameter: String? = nil,
        ownerOnlyActions: [String: String] = [:],
        countsRowImpressions: Bool = false
    ) {
        self.countsRowImpressions = countsRowImpressions
        self.type = type
        self.version = version
        self.summary = summary
        self.parameters = parameters
        self.events = events
        self.defaultActions = defaultActions
        self.ownerOnlyParameter = ownerOnlyParameter
        self.ownerOnlyActions = ownerOnlyActions
    }

    /// The parameter with the given name, if declared.
    public func parameter(named name: String) -> ParameterSpec? {
        parameters.first { $0.name == name }
    }
}
