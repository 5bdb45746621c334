/// Who is looking at what: the context a scene is assembled for.
///
/// ```swift
/// let own = SceneContext(viewer: "1", arguments: ["user": "1"])     // my profile
/// let other = SceneContext(viewer: "2", arguments: ["user": "1"])   // someone else's
/// let anonymous = SceneContext(viewer: nil, arguments: ["user": "1"])
/// ```
public struct SceneContext: Sendable, Hashable {
    /// The signed-in user's id, `nil` when signed out.
    public var viewer: String?
    /// Values for the scene's parameters, by name.
    public var arguments: [String: JSONValue]

    /// Creates a context.
    public init(viewer: String?, arguments: [String: JSONValue] = [:]) {
        self.viewer = viewer
        self.arguments = arguments
    }

    /// The environment conditions and templates are evaluated in.
    func environment(event: [String: JSONValue] = [:]) -> Condition.Environment {
        Condition.Environment(viewer: viewer, arguments: arguments, event: event)
    }
}
