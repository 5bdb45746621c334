import Foundation
import Hummingbird
import Scenery
import SceneryLive
import SceneryPageProtocol

extension SceneryServer {
    /// Why a page was not made again from its resume token.
    enum ResumeRefusal: Error, Equatable {
        case token(ResumeToken.Refusal)
        case otherSession, otherViewer, tooManyPages
        case sceneGone(String)
        /// The server is stopping (a deploy): the page connects again, to another server,
        /// with its token unspent.
        case serverClosing
        /// Another socket of the page is making it again here now: this one waits its turn.
        case alreadyResuming

        /// Why, for the page (a WebSocket close reason: at most 123 bytes).
        var reason: String {
            switch self {
            case .token(let refusal): refusal.reason
            case .otherSession: "This page's resume token is for another page; load the page again."
            case .otherViewer: ResumeToken.Refusal.otherViewer.reason
            case .tooManyPages: "You have as many pages of this site open as one person may hold; close some, then load this one again."
            case .sceneGone: "This page's scene cannot open on this server; load the page again."
            case .serverClosing: "This server is stopping; the page connects again."
            case .alreadyResuming: "This page is being made again here; it connects again in a moment."
            }
        }

        /// Why, for the log.
        var logged: String {
            switch self {
            case .token(let refusal): "token \(refusal)"
            case .sceneGone(let message): "scene cannot open: \(message)"
            default: "\(self)"
            }
        }
    }

    /// Makes a page again from its resume token on a server that does not hold its session
    /// (its own went away, or it was away past the grace period): checks the token's
    /// signature and age, that it is this page's and the socket's viewer's, and claims it
    /// in the site's ledger (a token resumes one page once); then starts the scene, selects
    /// its tabs, loads its pages and windows, and continues the page's numbering after
    /// `since` with the whole scene.
    ///
    /// The token is claimed last, once the page is ready to attach, and not at all by a
    /// server that is stopping: a server that goes away while it makes a page again (a
    /// rolling restart) leaves the token to the next server, instead of a page that must load
    /// afresh because its token was spent and the token that replaced it never reached it.
    /// A server that stops just after its claim, before its new token reached the page,
    /// leaves a token the page may use again while it never moved on (``ResumeTokenUses``).
    func resumePage(
        _ id: String, token text: String, since: Int, request: Request, address: String, kinds: PageProtocol.NodeKinds = .version1
    ) async throws(ResumeRefusal) -> PageSession {
        // One making of a page at a time: sockets of one page in a burst (or a forged flood
        // of one token) make it at most once here.
        guard await sessions.beginResuming(id) else { throw .alreadyResuming }
        // A socket that found no page as another made it: the page is here now, and this
        // socket finds it when it connects again (making it again would spend a use).
        if let made = await sessions.session(id), await !made.hasEnded {
            await sessions.endResuming(id)
            throw .alreadyResuming
        }
        do {
            let session = try await makePageAgain(id, token: text, since: since, request: request, address: address, kinds: kinds)
            await sessions.endResuming(id)
            return session
        } catch {
            await sessions.endResuming(id)
            throw error
        }
    }

    private func makePageAgain(
        _ id: String, token text: String, since: Int, request: Request, address: String, kinds: PageProtocol.NodeKinds
    ) async throws(ResumeRefusal) -> PageSession {
        let token: ResumeToken
        do {
            token = try ResumeToken.verify(text, secret: configuration.cookieSecret, lifetime: configuration.resumeTokenLifetime)
        } catch {
            throw .token(error)
        }
        guard token.session == id else { throw .otherSession }
        let viewer = self.viewer(of: request)?.id
        guard token.viewer == viewer else { throw .otherViewer }
        let uses: ResumeTokenUses
        do {
            uses = try ResumeTokenUses(nonce: token.nonce)
        } catch {
            throw .token(.malformed)
        }
        guard await !sessions.isClosing else { throw .serverClosing }
        // A spent token is refused before any work (reads only); the claim that spends a use
        // comes last, atomically.
        guard let use = try await askLedger("look up", id, { try await uses.nextUse(in: $0) }) else { throw .token(.used) }
        guard case .success(let reservation) = await reservePage(viewer: viewer, address: address) else { throw .tooManyPages }
        let session = PageSession(
            id: id, viewer: viewer, sceneID: token.scene, arguments: token.arguments, renderer: renderer, configuration: configuration,
            logger: logger, address: address, anonymousID: viewer == nil ? token.visitor : nil,
            format: token.readsViewTree == true ? .viewTree(kinds) : .html, locale: token.locale, metrics: metrics, tracer: tracer,
            inspectorStats: inspectorStats, sharedPatches: sharedPatches)
        let scene: SceneInstance
        do {
            scene = try registry.instantiate(token.scene, for: session.context, host: session.host, on: session.page)
        } catch {
            await sessions.release(reservation)
            throw .sceneGone(error.description)
        }
        session.host.link(session)
        await session.restore(from: token)
        await session.setInitialWindows(of: scene)
        await scene.start()
        await session.replay(token, on: scene)
        await scene.appear()
        await session.installResumed(scene, baseline: await scene.takeBaseline(), since: since)
        let claimed: ActionKey
        do throws(ResumeRefusal) {
            guard await !sessions.isClosing else { throw .serverClosing }
            // The use found at first, or (another server took it meanwhile) the next one.
            guard let next = try await askLedger("record the use of", id, { try await uses.claim(from: use, in: $0) }) else { throw .token(.used) }
            claimed = next
        } catch {
            await session.end()
            await sessions.release(reservation)
            throw error
        }
        await sessions.add(session, in: reservation)
        if let errors = currentErrors { await session.showErrors(errors) }
        // The page moved on from the token it was made from before this one: that one makes
        // nothing again.
        if let origin = token.origin, let earlier = try? ResumeTokenUses(nonce: origin) {
            _ = try? await askLedger("record the successor of", id, { try await $0.claim(earlier.movedOn) })
        }
        metrics.pagesResumed.increment()
        logger.info("resumed page \(id) (\(token.scene)) from its token\(claimed == uses.first ? "" : " again (\(claimed))")")
        return session
    }

    /// A call of the site's ledger for page `id`'s resume token; a failure is logged (`doing`
    /// names the call: "look up", "record the use of") and is the page's scene being out of
    /// reach, so the page loads again.
    private func askLedger<Answer>(
        _ doing: String, _ id: String, _ call: (any ActionLedger) async throws -> Answer
    ) async throws(ResumeRefusal) -> Answer {
        do {
            return try await call(configuration.actionLedger)
        } catch {
            logger.warning("could not \(doing) page \(id)'s resume token: \(error)")
            throw .sceneGone("the ledger is unavailable")
        }
    }
}
