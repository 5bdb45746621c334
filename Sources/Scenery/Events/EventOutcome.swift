/// What became of an event: the route it took and where it ended.
///
/// ```swift
/// let outcome = await scene.send(Event("user.unfollow", from: "info/follow"))
/// print(outcome.route.map(\.description))
/// // ["module info: passed", "scene: asked 'Unfollow Alice?', declined"]
/// ```
public struct EventOutcome: Sendable, Hashable {
    /// Where the route ended.
    public enum Result: Sendable, Hashable, CustomStringConvertible {
        /// A level handled the event.
        case handled(by: Level)
        /// A level stopped it: a declined confirmation or a blocking rule.
        case cancelled(by: Level)
        /// It went through every level to the host.
        case delivered
        /// The scene was left; nothing happened.
        case ignored
        /// A level's action failed (a module's ``Module/perform(_:)`` threw): the event
        /// went no further, and the host did not receive it.
        case failed(in: Level, reason: String)

        /// In words: `handled by module info`, `cancelled by scene`, `delivered`, `ignored`,
        /// `failed in module bin: …`.
        public var description: String {
            switch self {
            case .handled(let level): "handled by \(level)"
            case .cancelled(let level): "cancelled by \(level)"
            case .delivered: "delivered"
            case .ignored: "ignored"
            case .failed(let level, let reason): "failed in \(level): \(reason)"
            }
        }
    }

    /// The event as it was sent.
    public var event: Event
    /// The event as the last level saw it (after any transformation).
    public var finalEvent: Event
    /// Each level's decision, in order.
    public var route: [Step]
    /// Where the route ended.
    public var result: Result
    /// Navigation intents the event led to.
    public var navigations: [NavigationIntent]
    /// The scene rule whose `on` and `when` matched the event, if one did: where the scene's
    /// decision (a question, a block, a navigation, letting it through) was written.
    public var rule: Rule? = nil
}

extension EventOutcome {
    /// A level of the event route.
    public enum Level: Sendable, Hashable, CustomStringConvertible {
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
    public struct Step: Sendable, Hashable, CustomStringConvertible {
        /// The level that decided.
        public var level: Level
        /// What it did.
        public var action: Action

        /// Creates a step.
        public init(_ level: Level, _ action: Action) {
            self.level = level
            self.action = action
        }

        /// `module info: passed`, `scene: asked 'Unfollow Alice?', declined`.
        public var description: String { "\(level): \(action)" }

        /// What one level of the route did with an event: a value to match in tests and tools,
        /// with the sentence people read as its description.
        ///
        /// ```swift
        /// #expect(outcome.route.map(\.action) == [.passed, .asked("Unfollow Alice?", confirmed: false)])
        /// ```
        public enum Action: Sendable, Hashable, CustomStringConvertible {
            /// The level dealt with it; it went no further.
            case handled
            /// It went on unchanged.
            case passed
            /// It went on as the event with this name.
            case transformed(into: String)
            /// The level asked the person, who answered.
            case asked(String, confirmed: Bool)
            /// A scene rule stopped it.
            case blocked
            /// A scene rule navigated to this scene.
            case navigated(to: String)
            /// The scene let it through to the module's default action and the host.
            case letThrough
            /// The module ran its default action (``Module/perform(_:)``).
            case performed
            /// The module's default action failed, for this reason; the event went no further.
            case failed(String)
            /// The router refused an owner-only action (``ModuleDescriptor/ownerOnlyActions``) to
            /// someone else, for this reason; nothing performed it and the host did not receive it.
            case refused(String)
            /// The host received it.
            case received
            /// The scene loaded a module again (retry, refresh, next page); its status after.
            case reloaded(ModuleID, LoadRequest, status: ModuleStatus)
            /// The scene selected a tab.
            case selectedTab(String)
            /// A runtime event that named nothing there; the reason in words.
            case ignored(String)

            public var description: String {
                switch self {
                case .handled: "handled"
                case .passed: "passed"
                case .transformed(let name): "transformed to \(name)"
                case .asked(let title, let confirmed): "asked '\(title)', \(confirmed ? "confirmed" : "declined")"
                case .blocked: "blocked"
                case .navigated(let scene): "navigated to \(scene)"
                case .letThrough: "let through"
                case .performed: "performed"
                case .failed(let reason): "failed: \(reason)"
                case .refused(let reason): "refused: \(reason)"
                case .received: "received"
                case .reloaded(let id, let request, let status):
                    "\(request == .initial ? "retried" : request == .refresh ? "refreshed" : "loaded more of") \(id): \(status.rawValue)"
                case .selectedTab(let tab): "selected tab \(tab)"
                case .ignored(let reason): "ignored: \(reason)"
                }
            }
        }
    }
}

extension EventOutcome {
    /// A scene rule, as the inspector and `interact`'s `trace` name it: its `on` and where its
    /// scene file wrote it.
    ///
    /// ```swift
    /// outcome.rule?.description  // rule 'user.unfollow' at Scenes/user-profile.json:41:5
    /// ```
    public struct Rule: Sendable, Hashable, CustomStringConvertible {
        /// The event name (or pattern) the rule is `on`.
        public var on: String
        /// The scene file that wrote it (a parent's or a variant's file, when inherited), and
        /// where in it the rule starts.
        public var file: String
        public var position: SourcePosition?

        public init(on: String, file: String, position: SourcePosition?) {
            self.on = on
            self.file = file
            self.position = position
        }

        public var description: String { "rule \(on.quoted) at \(file)" + (position.map { ":\($0)" } ?? "") }
    }
}

extension EventOutcome: CustomStringConvertible {
    /// The event, where it came from, each step of its route and how it ended, on one line:
    /// `blog.like from blogs/blog.26.like: module blogs: handled (handled by module blogs)`.
    public var description: String {
        "\(event.name) from \(event.source): " + route.map(\.description).joined(separator: " → ") + " (\(result))"
    }
}
