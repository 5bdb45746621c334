import Foundation
import Logging
import NIOWebSocket
import Scenery
import SceneryPageProtocol

/// Scene → page: each update of the scene becomes a numbered message for the page, kept
/// for replay; confirmations, navigation, titles and announcements go the same way.
extension PageSession {
    func sceneDidUpdate(_ update: SceneUpdate) async {
        guard !hasEnded else { return }
        var patches: [(Patch, of: SceneUpdate)] = []
        let outcome = mirror.receive(update) { patches.append((try patch(for: $0), of: $0)) }
        for (patch, update) in patches { sendPatch(patch, of: update) }
        if case .needsBaseline(let reason) = outcome {
            logger.warning("page \(id): \(reason) Sending the whole scene.")
            await resetPage()
        }
        // What others' changes mean, once shown: the page says a batch of them once.
        if !update.announcements.isEmpty, !patches.isEmpty { send(.announce(texts: update.announcements)) }
        await followTitle()
    }

    /// Starts following what the page is about: `shown` is the heading the page was sent
    /// with. While modules that were still loading then finish, a module that names the
    /// page (``SceneInstance/pageTitle()``) gives the page its heading.
    func showsTitle(_ shown: String) async {
        shownTitle = shown
        await followTitle()
    }

    /// Sends the page its heading when it changed, until every module's first load ended
    /// (then the heading is settled: following it costs nothing per update).
    func followTitle() async {
        guard opening.format == .html, let shown = shownTitle, let scene, !hasEnded else { return }
        let settled = await scene.hasFinishedFirstLoads
        if let title = await scene.pageTitle(), title != shown {
            shownTitle = title
            pageSequence += 1
            send(.title(sequence: pageSequence, text: title))
        }
        if settled { shownTitle = nil }
    }

    /// Gives the page the whole scene again, from a new baseline. One reset at a time: a
    /// baseline makes the scene drop the updates it includes, so a second one asked for
    /// meanwhile runs after the first instead of beside it.
    func resetPage() async {
        guard let scene, !hasEnded else { return }
        guard resets.ask() else { return }
        repeat {
            mirror.prepareToAttach()
            let baseline = await scene.takeBaseline()
            if !takeIn(baseline, sendingWholeScene: true) { resets.ask() }
        } while resets.finishRound(pageEnded: hasEnded)
    }

    /// Takes a baseline in as the page's copy; sends the page the whole scene (unless it was
    /// rendered from this baseline), then the updates that arrived meanwhile and are newer.
    /// Returns `false` when one of those did not apply (the page needs another baseline).
    func takeIn(_ baseline: SceneSnapshot, sendingWholeScene: Bool) -> Bool {
        var patches: [(Patch, of: SceneUpdate)] = []
        let outcome = mirror.attach(baseline) { patches.append((try patch(for: $0), of: $0)) }
        if sendingWholeScene { self.sendWholeScene(baseline.node) }
        for (patch, update) in patches { sendPatch(patch, of: update) }
        return outcome == .applied
    }

    /// What one update becomes for the page's client.
    enum Patch {
        /// An HTML page's DOM operations, encoded once for every page that gets the same
        /// update (``SharedPatches``).
        case operations(PageProtocol.EncodedPatch)
        case update(SceneUpdate)
    }

    func patch(for update: SceneUpdate) throws -> Patch {
        switch opening.format {
        case .html: .operations(try patches.patch(for: update))
        case .viewTree: .update(shown(update))
        }
    }

    /// Sends the page one update, numbered: its DOM operations, or its view-tree patches;
    /// the inspector's trace (when on) notes what it re-rendered and what it cost.
    func sendPatch(_ patch: Patch, of update: SceneUpdate) {
        pageSequence += 1
        let (bytes, operations) =
            switch patch {
            case .operations(let encoded): (send(numbered: encoded.text(sequence: pageSequence), pageSequence), encoded.operationCount)
            case .update(let shown):
                (send(.patches(sequence: pageSequence, module: shown.module, node: shown.node.id, patches: shown.patches)), shown.patches.count)
            }
        guard trace != nil else { return }
        trace?.record(PageTrace.Patch(module: update.module, node: update.node.id, operations: operations, bytes: bytes), at: .now)
    }

    /// Sends a message to the page; numbered messages are kept for replay after a reconnect.
    /// Returns the message's size in bytes.
    @discardableResult
    func send(_ message: PageProtocol.ServerMessage) -> Int {
        let text = message.text
        if let sequence = message.sequence { return send(numbered: text, sequence, isWholeScene: message.isWholeScene) }
        write(text)
        return text.utf8.count
    }

    /// Sends the text of the page's `sequence`-th numbered message, keeping it for replay
    /// (the newest, within `replayedUpdates` messages and `replayedBytes`). Returns its size
    /// in bytes.
    private func send(numbered text: String, _ sequence: Int, isWholeScene: Bool = false) -> Int {
        replay.keep(sequence: sequence, text: text, isWholeScene: isWholeScene)
        write(text)
        return text.utf8.count
    }

    /// Lets go of the kept messages sent to an attached socket longer than
    /// ``SceneryServer/Configuration/replayedAge`` before `now`, so that a page's memory
    /// returns to its idle level once changes stop (a page that comes back needing one of
    /// them is sent the whole scene). A page without a socket keeps what it was sent, for
    /// its reconnect.
    func letGoOfOldMessages(now: ContinuousClock.Instant) {
        guard isAttached else { return }
        replay.letGo(olderThan: configuration.replayedAge, now: now)
    }

    /// How many messages the session keeps for replay (for tests).
    var keptMessageCount: Int { replay.count }

    /// Writes a message to the attached socket, if any. A page that does not read has its
    /// socket let go past ``SceneryServer/Configuration/maxQueuedMessages`` or
    /// ``SceneryServer/Configuration/maxQueuedBytes`` unwritten.
    func write(_ text: String) {
        guard let socket = attachment.socket else { return }
        guard socket.unwritten < configuration.maxQueuedMessages, socket.unwrittenBytes + text.utf8.count <= configuration.maxQueuedBytes else {
            // The page does not read: close its socket; it reconnects and catches up.
            logger.notice(
                "page \(id): more than \(configuration.maxQueuedMessages) messages or \(configuration.maxQueuedBytes) bytes unread; closing its socket")
            letGoOfSocket(detachedAt: .now)
            return
        }
        socket.send(text)
        metrics.messagesSent.increment()
        metrics.bytesSent.increment(by: text.utf8.count)
    }

    /// Closes the attached socket, if any, and forgets it; the page's grace period starts at
    /// `now` when given (the server let go of a page that is still open).
    func letGoOfSocket(detachedAt now: ContinuousClock.Instant? = nil) {
        guard let socket = attachment.letGo(detachedAt: now) else { return }
        socket.close()
        metrics.socketsOpen.decrement()
    }

    /// Sends the page the whole scene (a numbered reset), as its copy now stands.
    func sendWholeScene(_ tree: ViewNode) {
        pageSequence += 1
        metrics.wholeScenesSent.increment()
        switch opening.format {
        case .html: send(.reset(sequence: pageSequence, html: patches.planner.renderer.fragment(tree)))
        case .viewTree: send(.tree(sequence: pageSequence, document: ViewTreeDocument(scene: sceneID, variant: scene?.variant, root: shown(tree))))
        }
    }

    func confirm(_ confirmation: Confirmation) async -> Bool {
        guard isAttached, !hasEnded else { return false }
        let number = questions.nextNumber()
        // With the action it holds up: a server the page resumes on after this one went away
        // asks again for that action, and the page answers once.
        let asked = PageProtocol.ServerMessage.confirm(question: number, confirmation, action: actions.running)
        send(asked)
        return await withCheckedContinuation { questions.wait(number, asked: asked, for: $0) }
    }

    func navigate(to intent: NavigationIntent) {
        send(.navigate(url: Self.path(of: intent.scene, arguments: intent.arguments)))
    }

    /// The page address of a scene with arguments.
    static func path(of scene: String, arguments: [String: JSONValue]) -> String {
        var components = URLComponents()
        components.path = "/scenes/\(scene)"
        if !arguments.isEmpty {
            components.queryItems = arguments.sorted { $0.key < $1.key }.map { URLQueryItem(name: $0.key, value: $0.value.plainText) }
        }
        return components.string ?? "/scenes/\(scene)"
    }

    /// Tells the page that a scene file has errors (the text `scenery validate` prints), or
    /// that they are fixed (`nil`).
    func showErrors(_ text: String?) {
        send(.errors(text))
    }

    /// Tells an HTML page to load its themes again (``PageProtocol/ServerMessage/theme(href:)``);
    /// a view-tree client draws with its own colours and is told nothing.
    func restyle(href: String) {
        guard opening.format == .html else { return }
        send(.theme(href: href))
    }
}
