/// A request to show another scene, for the host to carry out.
///
/// Scenes never jump: a scene-file rule (`"navigate": {"scene": "blog-detail", ...}`)
/// turns an event into an intent, and the host decides how to present it.
public struct NavigationIntent: Sendable, Hashable, Codable {
    /// The id of the scene to show.
    public var scene: String
    /// The arguments for that scene's parameters.
    public var arguments: [String: JSONValue]
    /// The name of the event that led here.
    public var trigger: String

    /// Creates an intent.
    public init(scene: String, arguments: [String: JSONValue] = [:], trigger: String = "") {
        self.scene = scene
        self.arguments = arguments
        self.trigger = trigger
    }
}
