/// What became of an event: the route it took and where it ended.
///
/// ```swift
/// let outcome = await scene.send(Event("user.unfollow", from: "info/follow"))
/// print(outcome.route.map(\.description))
/// // ["module info: passed", "scene: asked 'Unfollow Alice?', declined"]
/// ```
public struct EventOutcome: Sendable, Hashable {
    /// Where the route ended.
    public enum Result: Sendable, Hashable {
        /// A level handled the event.
        case handled(by: RouteLevel)
        /// A level stopped it: a declined confirmation or a blocking rule.
        case cancelled(by: RouteLevel)
        /// It went through every level to the host.
        case delivered
        /// The scene was left; nothing happened.
        case ignored
    }

    /// The event as it was sent.
    public var event: Event
    /// The event as the last level saw it (after any transformation).
    public var finalEvent: Event
    /// Each level's decision, in order.
    public var route: [RouteStep]
    /// Where the route ended.
    public var result: Result
    /// Navigation intents the event led to.
    public var navigations: [NavigationIntent]
}

/// A level of the event route.
public enum RouteLevel: Sendable, Hashable, CustomStringConvertible {
    case module(ModuleID)
    case scene
    case host

    public var description: String {
        switch self {
        case .module(let id): "module \(id)"
        case .scene: "scene"
        case .host: "host"
        }
    }
}

/// One level's decision about an event.
public struct RouteStep: Sendable, Hashable, CustomStringConvertible {
    /// The level that decided.
    public var level: RouteLevel
    /// What it did, in words: "passed", "handled", "asked 'Unfollow Alice?', declined".
    public var action: String

    /// Creates a step.
    public init(_ level: RouteLevel, _ action: String) {
        self.level = level
        self.action = action
    }

    public var description: String { "\(level): \(action)" }
}
