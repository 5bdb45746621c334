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
    /// A stable id the host keeps for a signed-out person (a cookie, an install id), so an
    /// experiment assigns them an arm; `nil` leaves signed-out people out of experiments.
    /// Never shown to anyone.
    public var anonymousID: String?
    /// Arms chosen by hand, by experiment name, for authors and tests (`scenery run --arm
    /// friends-layout=compact`). An override applies only where the experiment does (its
    /// `"when"` still decides who takes part), so it cannot show anyone what validation
    /// did not prove they may see; reports leave overridden assignments out.
    public var armOverrides: [String: String] = [:]
    /// The language the viewer reads (BCP 47, such as `zh-Hans` or `ar`), when the host
    /// knows it: the scene is shown in it when a message catalog has it
    /// (``SceneRegistry/language(of:for:)``), else in the scene's own language.
    public var locale: String?

    /// Creates a context.
    public init(
        viewer: String?, arguments: [String: JSONValue] = [:], anonymousID: String? = nil, armOverrides: [String: String] = [:],
        locale: String? = nil
    ) {
        self.viewer = viewer
        self.arguments = arguments
        self.anonymousID = anonymousID
        self.armOverrides = armOverrides
        self.locale = locale
    }

    /// Who an experiment assigns: the viewer, or the host's anonymous id when signed out.
    var experimentUnit: String? { viewer ?? anonymousID }

    /// The environment conditions and templates are evaluated in.
    func environment(event: [String: JSONValue] = [:]) -> Condition.Environment {
        Condition.Environment(viewer: viewer, arguments: arguments, event: event)
    }
}
