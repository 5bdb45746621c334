import Scenery
import Synchronization

/// A `SceneHost` for tests: it records every event, navigation and update it receives,
/// and answers confirmations with a ``ScriptedConfirmer``.
///
/// ```swift
/// let host = RecordingHost(confirmer: ScriptedConfirmer(answers: [true]))
/// let scene = try await registry.assemble("user-profile", for: context, host: host)
/// await scene.send(Event("user.unfollow", from: "info/follow"))
/// #expect(host.navigations.map(\.scene) == ["follow-list"])
/// ```
public final class RecordingHost: SceneHost, Sendable {
    private struct Log {
        var events: [Event] = []
        var navigations: [NavigationIntent] = []
        var updates: [SceneUpdate] = []
    }

    private let log = Mutex(Log())
    /// Answers confirmations and remembers them.
    public let confirmer: ScriptedConfirmer

    /// Creates a host whose confirmations are answered by `confirmer`.
    public init(confirmer: ScriptedConfirmer = .decliningAll) {
        self.confirmer = confirmer
    }

    public func confirm(_ confirmation: Confirmation) async -> Bool {
        confirmer.answer(confirmation)
    }

    public func navigate(to intent: NavigationIntent) async {
        log.withLock { $0.navigations.append(intent) }
    }

    public func receive(_ event: Event) async {
        log.withLock { $0.events.append(event) }
    }

    public func sceneDidUpdate(_ update: SceneUpdate) async {
        log.withLock { $0.updates.append(update) }
    }

    /// Events that reached the host, in order.
    public var receivedEvents: [Event] { log.withLock { $0.events } }

    /// Navigation intents, in order.
    public var navigations: [NavigationIntent] { log.withLock { $0.navigations } }

    /// Subtree updates, in order.
    public var updates: [SceneUpdate] { log.withLock { $0.updates } }

    /// Confirmations asked, in order.
    public var confirmations: [Confirmation] { confirmer.asked }

    /// Forgets everything recorded so far (confirmations excepted).
    public func reset() {
        log.withLock { $0 = Log() }
    }
}
