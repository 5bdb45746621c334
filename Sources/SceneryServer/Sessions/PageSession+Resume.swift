import Foundation
import Logging
import NIOWebSocket
import Scenery
import SceneryPageProtocol

/// Resuming elsewhere: what a resume token keeps of the page, and how a page made again
/// from one is brought to where it was.
extension PageSession {
    /// Whether the page gets resume tokens: any page but a preview frame (an HTML page and a
    /// view-tree client alike resume from them on a server that lost their session).
    var issuesResumeTokens: Bool { !opening.isPreview }

    /// What the page would need to be made again on another server, now.
    var resumeToken: ResumeToken {
        place.token(
            session: id, viewer: viewer, visitor: opening.anonymousID, scene: sceneID, arguments: opening.arguments,
            locale: opening.locale, readsViewTree: opening.format.readsViewTree)
    }

    /// The page's resume token as the page keeps it, signed with the site's key; `nil` for
    /// a page that gets none.
    func signedResumeToken() -> String? {
        issuesResumeTokens ? resumeToken.signed(with: configuration.cookieSecret) : nil
    }

    /// Takes in what a resume token kept (before the scene is made again from it).
    func restore(from token: ResumeToken) {
        place = PagePlace(resumingFrom: token)
    }

    /// Brings a new scene to where the token's page was: its tabs selected, its pages
    /// loaded (its windows were set by ``setInitialWindows(of:)``). The scene has started.
    func replay(_ token: ResumeToken, on scene: SceneInstance) async {
        for (switchID, tab) in token.tabs.sorted(by: { $0.key < $1.key }) {
            await scene.send(Event(.selectTab(tab, inSwitch: switchID), from: NodeID(switchID)))
        }
        for (module, count) in token.pagesLoaded.sorted(by: { $0.key < $1.key }) {
            for _ in 0..<min(count, Self.largestPagesReplayed) {
                await scene.send(Event(.loadMore(ModuleID(module)), from: NodeID(module)))
            }
        }
    }

    /// The most pages of one module a resumed page loads again.
    static let largestPagesReplayed = 50

    /// Whether the site's ledger recorded the action (a failure to ask counts as not: the
    /// store's own record refuses nothing, so the action runs, as it would have before).
    func hasApplied(_ key: ActionKey) async -> Bool {
        do {
            return try await configuration.actionLedger.hasApplied(key)
        } catch {
            logger.warning("page \(id): could not ask whether action \(key) was applied: \(error)")
            return false
        }
    }

    /// Tells the page an action is finished with (ran, refused, or found done) and gives it
    /// a new resume token; the session remembers the key, so a page that sends it again is
    /// answered without running it.
    func acknowledge(_ key: ActionKey) {
        place.finish(key)
        sendResumeToken()
    }

    /// Sends the attached page a fresh resume token and the actions finished since the last.
    func sendResumeToken() {
        guard isAttached, !hasEnded else { return }
        let applied = place.takeUnannounced()
        if let token = signedResumeToken() { write(PageProtocol.ServerMessage.resume(token: token, applied: applied).text) }
    }
}
