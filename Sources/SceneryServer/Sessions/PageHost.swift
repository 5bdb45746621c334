import Scenery
import Synchronization

/// The ``SceneHost`` of one page: hands everything the scene asks of its host to the page's
/// session (which talks to the browser).
final class PageHost: SceneHost, Sendable {
    private let session = Locked<PageSession?>(nil)

    func link(_ session: PageSession) {
        self.session.withLock { $0 = session }
    }

    private var linked: PageSession? { session.withLock { $0 } }

    nonisolated(nonsending) func confirm(_ confirmation: Confirmation) async -> Bool {
        await linked?.confirm(confirmation) ?? false
    }

    nonisolated(nonsending) func navigate(to intent: NavigationIntent) async {
        await linked?.navigate(to: intent)
    }

    nonisolated(nonsending) func sceneDidUpdate(_ update: SceneUpdate) async {
        await linked?.sceneDidUpdate(update)
    }
}
