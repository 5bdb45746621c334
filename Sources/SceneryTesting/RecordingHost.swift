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
    }

    private let log = Locked(Log())
    private let updateLog = AwaitableLog<SceneUpdate>()
    /// Answers confirmations and remembers them.
    public let confirmer: ScriptedConfirmer

    /// Creates a host whose confirmations are answered by `confirmer`.
    public init(confirmer: ScriptedConfirmer = .decliningAll) {
        self.confirmer = confirmer
    }

    public nonisolated(nonsending) func confirm(_ confirmation: Confirmation) async -> Bool {
        confirmer.answer(confirmation)
    }

    public nonisolated(nonsending) func navigate(to intent: NavigationIntent) async {
        log.withLock { $0.navigations.append(intent) }
    }

    public nonisolated(nonsending) func receive(_ event: Event) async {
        log.withLock { $0.events.append(event) }
    }

    public nonisolated(nonsending) func sceneDidUpdate(_ update: SceneUpdate) async {
        updateLog.append(update)
    }

    /// Waits until the updates received so far satisfy `condition` (checked at once, then
    /// on each update), for updates that come from elsewhere, such as another viewer's
    /// change reaching a live scene; `false` if `timeout` passed first.
    ///
    /// The timeout only keeps a broken scene from hanging a suite: the wait ends on the
    /// update, never on the clock, when the scene works.
    ///
    /// ```swift
    /// let arrived = await host.waitForUpdates { updates in updates.contains { $0.module == "blogs" } }
    /// #expect(arrived, "Bob's like reached Carol's page")
    /// ```
    @discardableResult
    public func waitForUpdates(
        timeout: Duration = .seconds(10), until condition: @escaping @Sendable ([SceneUpdate]) -> Bool
    ) async -> Bool {
        await updateLog.wait(timeout: timeout, until: condition)
    }

    /// Events that reached the host, in order.
    public var receivedEvents: [Event] { log.withLock { $0.events } }

    /// Navigation intents, in order.
    public var navigations: [NavigationIntent] { log.withLock { $0.navigations } }

    /// Subtree updates, in order.
    public var updates: [SceneUpdate] { updateLog.elements }

    /// Confirmations asked, in order.
    public var confirmations: [Confirmation] { confirmer.asked }

    /// Forgets everything recorded so far (confirmations excepted).
    public func reset() {
        log.withLock { log in
            log.events = []
            log.navigations = []
        }
        updateLog.removeAll()
    }
}
