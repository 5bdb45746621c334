import Foundation
import Logging
import NIOWebSocket
import Scenery
import SceneryPageProtocol

/// One open page: its scene instance, the page's copy of the tree, and the socket to the
/// browser while there is one.
///
/// The page is rendered from a snapshot; every later update of the scene becomes a
/// numbered message of DOM operations (``DOMPlanner``). The session outlives its socket by
/// a grace period: a page that reconnects says the last message it applied, and gets the
/// messages it missed (or the whole scene again) from the same scene instance, so its
/// selected tab and loaded pages survive.
actor PageSession {
    /// What the page's client reads: HTML and DOM operations (the page script), or the
    /// view tree and its patches (a native or terminal client, `/api/scenes/ID`).
    enum Format: Sendable {
        case html, viewTree
    }

    nonisolated let id: String
    nonisolated let format: Format
    nonisolated let viewer: String?
    nonisolated let sceneID: String
    nonisolated let arguments: [String: JSONValue]
    nonisolated let host: PageHost

    /// The context the page's scene is assembled for.
    nonisolated var context: SceneContext {
        SceneContext(viewer: viewer, arguments: arguments, anonymousID: anonymousID, armOverrides: armOverrides, locale: locale)
    }
    /// The language the viewer asked for (`?lang=`, the language cookie, `Accept-Language`).
    nonisolated let locale: String?
    /// A preview's page: its viewer was chosen by the server, not by a sign-in.
    nonisolated let isPreview: Bool
    /// The address the page was requested from (for the per-address page limit).
    nonisolated let address: String
    /// The signed-out visitor's id (for experiments), and the arms a preview frame chose.
    nonisolated let anonymousID: String?
    nonisolated let armOverrides: [String: String]
    private let configuration: SceneryServer.Configuration
    private let logger: Logger

    private var scene: SceneInstance?
    /// The pending count of impressions a visibility report asked for, and when it runs.
    private var impressionTimer: Task<Void, Never>?
    private var impressionDeadline: ContinuousClock.Instant?
    private let planner: DOMPlanner
    /// The scene's update stream, kept in order for the page; it holds the updates that
    /// come before the scene is installed or while the page is being reset. It keeps no copy
    /// of the tree: the page borrows the scene's (each update carries the subtree it
    /// changes, and a tap is checked against the scene's model of the page).
    private var mirror = SceneMirror(keepsTree: false)
    /// Messages to the page: numbered, the recent ones kept for replay.
    private var pageSequence = 0
    /// The heading the page shows, while modules that may name the page still load.
    private var shownTitle: String?
    /// Each kept with whether it is the whole scene (a replay may start there) and when it
    /// was sent, its bytes counted, so what a page keeps for replay is bounded in count, bytes
    /// and age.
    private var recent: [KeptMessage] = []
    private var recentBytes = 0

    /// A numbered message kept to replay after a reconnect.
    private struct KeptMessage {
        let sequence: Int
        let text: String
        let isWholeScene: Bool
        let sentAt: ContinuousClock.Instant
    }
    /// The open socket, if any.
    private var socket: (any PageSocket)?
    private var connection = 0
    private var detachedSince: ContinuousClock.Instant?
    private let created = ContinuousClock.now
    private var bucket: TokenBucket
    /// Every other kind of message a page sends has a rate of its own: a resync costs a
    /// whole scene, so one a second; visibility reports come in bursts as a list scrolls.
    private var resyncBucket = TokenBucket(rate: 1, capacity: 3)
    private var reportBucket = TokenBucket(rate: 20, capacity: 120)
    private var refusedInARow = 0
    /// Controls the page activated, run one at a time in order; and where the page wants
    /// its long list's window (the newest move wins), run apart so a slow action never holds
    /// a scroll back. Each queue has a task only while it has work: an idle page holds none.
    private var queuedEvents: [(node: NodeID, action: ActionKey?, values: [String: String]?)] = []
    private var isRunningEvents = false
    private var pendingMove: (module: ModuleID, start: Int)?
    private var isMovingWindow = false
    /// Where the page's window of each long list starts (kept for a scene replaced by a new version).
    private var windowStarts: [ModuleID: Int] = [:]
    /// What a resume token keeps of the page: the tabs it selected, the pages it loaded.
    private var selectedTabs: [String: String] = [:]
    private var pagesLoaded: [ModuleID: Int] = [:]
    /// The keys of the 256 newest actions this session finished with (a page that sends one
    /// again is answered, not run again), and those the page has not heard of yet.
    private var finishedActions = RecentKeys<ActionKey>(capacity: 256)
    private var unannouncedActions: [ActionKey] = []
    /// Whether the session was made again from a resume token: an action the page sends
    /// may have been applied by the server that went away, so the ledger is asked first.
    private var isResumed = false
    /// The action running now, if it has a key.
    private var runningAction: ActionKey?
    private var confirmations: [Int: CheckedContinuation<Bool, Never>] = [:]
    private var nextConfirmation = 1
    private(set) var hasEnded = false

    init(
        id: String, viewer: String?, sceneID: String, arguments: [String: JSONValue], renderer: HTMLRenderer,
        configuration: SceneryServer.Configuration, logger: Logger, isPreview: Bool = false, address: String = "unknown",
        anonymousID: String? = nil, armOverrides: [String: String] = [:], format: Format = .html, locale: String? = nil
    ) {
        self.format = format
        self.locale = locale
        self.anonymousID = anonymousID
        self.armOverrides = armOverrides
        self.isPreview = isPreview
        self.address = address
        self.id = id
        self.viewer = viewer
        self.sceneID = sceneID
        self.arguments = arguments
        self.configuration = configuration
        self.logger = logger
        host = PageHost()
        planner = DOMPlanner(renderer: renderer)
        bucket = TokenBucket(rate: configuration.eventsPerSecond, capacity: configuration.eventBurst)
    }

    /// Installs the started scene and the baseline the page was rendered from; updates that
    /// arrived meanwhile and are newer apply next.
    func install(_ scene: SceneInstance, baseline: SceneSnapshot) {
        self.scene = scene
        if !takeIn(baseline, sendingWholeScene: false) { Task { await resetPage() } }
    }

    /// Installs a scene made again from a resume token (``restore(from:)`` ran first): the
    /// page last applied message `since` of the server that went away, so the whole scene
    /// goes to it as message `since + 1` once its socket attaches.
    func installResumed(_ scene: SceneInstance, baseline: SceneSnapshot, since: Int) {
        self.scene = scene
        pageSequence = min(max(0, since), PageProtocol.largestSequence)
        if !takeIn(baseline, sendingWholeScene: true) { Task { await resetPage() } }
    }

    // MARK: Scene → page

    func sceneDidUpdate(_ update: SceneUpdate) async {
        guard !hasEnded else { return }
        var patches: [Patch] = []
        let outcome = mirror.receive(update) { patches.append(try patch(for: $0)) }
        for patch in patches { sendPatch(patch) }
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
    private func followTitle() async {
        guard format == .html, let shown = shownTitle, let scene, !hasEnded else { return }
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
        guard !isResetting else {
            resetAgain = true
            return
        }
        isResetting = true
        repeat {
            resetAgain = false
            mirror.prepareToAttach()
            let baseline = await scene.takeBaseline()
            if !takeIn(baseline, sendingWholeScene: true) { resetAgain = true }
        } while resetAgain && !hasEnded
        isResetting = false
    }

    private var isResetting = false
    private var resetAgain = false

    /// Takes a baseline in as the page's copy; sends the page the whole scene (unless it was
    /// rendered from this baseline), then the updates that arrived meanwhile and are newer.
    /// Returns `false` when one of those did not apply (the page needs another baseline).
    private func takeIn(_ baseline: SceneSnapshot, sendingWholeScene: Bool) -> Bool {
        var patches: [Patch] = []
        let outcome = mirror.attach(baseline) { patches.append(try patch(for: $0)) }
        if sendingWholeScene { self.sendWholeScene(baseline.node) }
        for patch in patches { sendPatch(patch) }
        return outcome == .applied
    }

    /// What one update becomes for the page's client.
    private enum Patch {
        case operations([DOMPlanner.Operation])
        case update(SceneUpdate)
    }

    private func patch(for update: SceneUpdate) throws -> Patch {
        switch format {
        case .html: .operations(try planner.operations(for: update))
        case .viewTree: .update(update)
        }
    }

    /// Sends the page one update, numbered: its DOM operations, or its view-tree patches.
    private func sendPatch(_ patch: Patch) {
        pageSequence += 1
        switch patch {
        case .operations(let operations): send(.patch(sequence: pageSequence, operations: operations))
        case .update(let update):
            send(.patches(sequence: pageSequence, module: update.module, node: update.node.id, patches: update.patches))
        }
    }

    /// Sends a message to the page; numbered messages are kept for replay after a reconnect.
    private func send(_ message: PageProtocol.ServerMessage) {
        let text = message.text
        if let sequence = message.sequence {
            keepForReplay(sequence: sequence, text: text, isWholeScene: message.isWholeScene)
        }
        write(text)
    }

    /// Keeps a numbered message for replay: the newest ones, within
    /// ``SceneryServer/Configuration/replayedUpdates`` messages and
    /// ``SceneryServer/Configuration/replayedBytes`` bytes. A message of the whole scene
    /// makes everything before it needless.
    private func keepForReplay(sequence: Int, text: String, isWholeScene: Bool) {
        if isWholeScene {
            recent = []
            recentBytes = 0
        }
        recent.append(KeptMessage(sequence: sequence, text: text, isWholeScene: isWholeScene, sentAt: .now))
        recentBytes += text.utf8.count
        var dropped = 0
        while recent.count - dropped > 1,
            recent.count - dropped > configuration.replayedUpdates || recentBytes > configuration.replayedBytes
        {
            recentBytes -= recent[dropped].text.utf8.count
            dropped += 1
        }
        recent.removeFirst(dropped)
    }

    /// Lets go of the kept messages sent to an attached socket longer than
    /// ``SceneryServer/Configuration/replayedAge`` before `now`, so that a page's memory
    /// returns to its idle level once changes stop (a page that comes back needing one of
    /// them is sent the whole scene). A page without a socket keeps what it was sent, for
    /// its reconnect.
    private func letGoOfOldMessages(now: ContinuousClock.Instant) {
        guard socket != nil, let first = recent.first, now - first.sentAt > configuration.replayedAge else { return }
        let kept = recent.drop { now - $0.sentAt > configuration.replayedAge }
        // A new array, so the old one's storage goes too.
        recent = Array(kept)
        recentBytes = recent.reduce(0) { $0 + $1.text.utf8.count }
    }

    /// How many messages the session keeps for replay (for tests).
    var keptMessageCount: Int { recent.count }

    /// Writes a message to the attached socket, if any. A page that does not read has its
    /// socket let go past ``SceneryServer/Configuration/maxQueuedMessages`` or
    /// ``SceneryServer/Configuration/maxQueuedBytes`` unwritten.
    private func write(_ text: String) {
        guard let socket else { return }
        guard socket.unwritten < configuration.maxQueuedMessages, socket.unwrittenBytes + text.utf8.count <= configuration.maxQueuedBytes else {
            // The page does not read: close its socket; it reconnects and catches up.
            logger.notice(
                "page \(id): more than \(configuration.maxQueuedMessages) messages or \(configuration.maxQueuedBytes) bytes unread; closing its socket")
            letGoOfSocket()
            detachedSince = .now
            return
        }
        socket.send(text)
    }

    /// Closes the attached socket, if any, and forgets it.
    private func letGoOfSocket() {
        socket?.close()
        socket = nil
    }

    /// Sends the page the whole scene (a numbered reset), as its copy now stands.
    private func sendWholeScene(_ tree: ViewNode) {
        pageSequence += 1
        switch format {
        case .html: send(.reset(sequence: pageSequence, html: planner.renderer.fragment(tree)))
        case .viewTree: send(.tree(sequence: pageSequence, document: ViewTreeDocument(scene: sceneID, variant: scene?.variant, root: tree)))
        }
    }

    func confirm(_ confirmation: Confirmation) async -> Bool {
        guard socket != nil, !hasEnded else { return false }
        let number = nextConfirmation
        nextConfirmation += 1
        send(.confirm(question: number, confirmation))
        return await withCheckedContinuation { confirmations[number] = $0 }
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
        guard format == .html else { return }
        send(.theme(href: href))
    }

    // MARK: Page → scene

    /// Attaches a socket (closing the one attached before): replays what the page missed
    /// since `since`, or the whole scene. Returns the connection's number.
    func attach(since: Int, socket newSocket: any PageSocket) -> Int {
        letGoOfSocket()
        connection += 1
        socket = newSocket
        detachedSince = nil
        refusedInARow = 0
        if since < pageSequence {
            if let first = recent.first, first.sequence <= since + 1 || first.isWholeScene, since >= 0 {
                for message in recent where message.sequence > since { write(message.text) }
            } else {
                Task { await resetPage() }
            }
        } else if since > pageSequence {
            // The page claims messages this session never sent (another server, a forged
            // number): give it the whole scene.
            Task { await resetPage() }
        }
        sendResumeToken()
        return connection
    }

    /// The socket `connection` closed.
    func detach(_ connection: Int) {
        guard connection == self.connection else { return }
        socket = nil
        detachedSince = .now
        for (_, waiting) in confirmations { waiting.resume(returning: false) }
        confirmations = [:]
    }

    /// What socket `connection` sent; returns `false`, reading nothing, when that socket
    /// is no longer the page's (a newer one took over, or it was let go).
    func receive(_ text: String, from connection: Int) async -> Bool {
        guard connection == self.connection, socket != nil else { return false }
        await receive(text)
        return true
    }

    /// Takes what socket `connection` sent, as every transport of a page socket does (the
    /// WebSocket's inbox, the test kit's in-process socket), and says whether the socket
    /// must close now, with its code and reason: normally when it is no longer the page's,
    /// as a policy violation when the page keeps sending what is refused; `nil` to read on.
    func take(_ text: String, from connection: Int) async -> (code: WebSocketErrorCode, reason: String?)? {
        guard await receive(text, from: connection) else { return (.normalClosure, nil) }
        return isAbusive ? (.policyViolation, "Too many refused messages.") : nil
    }

    /// What the page sent (``PageProtocol/ClientMessage``). Anything but a known control,
    /// an answer or a resync request is refused and logged; the session carries on.
    func receive(_ text: String) async {
        let message: PageProtocol.ClientMessage
        do {
            message = try JSONDecoder().decode(PageProtocol.ClientMessage.self, from: Data(text.utf8))
        } catch let refusal as PageProtocol.ClientMessage.Refusal {
            if case .unknownType(let type) = refusal {
                refuse(refusal.message, logged: "unknown message type \(type.quoted)")
            } else {
                refuse(refusal.message, logged: "a message of no type of the protocol (\(text.utf8.count) bytes)")
            }
            return
        } catch {
            refuse("The message is not valid JSON of the page protocol.", logged: "malformed message (\(text.utf8.count) bytes)")
            return
        }
        await receive(message)
    }

    /// What the page sent, decoded: a control's event, a window move, an answer, a resync
    /// request or a visibility report. What is not on this page, or comes too fast, is
    /// refused and logged; the session carries on.
    func receive(_ message: PageProtocol.ClientMessage) async {
        switch message {
        case .event(let node, let action, let values):
            guard node.rawValue.utf8.count <= 512 else {
                refuse("An event must name a control.", logged: "event with an overlong node", action: action)
                return
            }
            guard bucket.take() else {
                refuse("Too many actions at once; wait a moment.", logged: "event flood", action: action)
                return
            }
            if let action, isKnown(action) { return }
            // Whether the control is on the page is asked when the event runs, against the
            // tree as it is then: once per event, in the same call that sends it.
            guard queuedEvents.count < Self.queuedActions else {
                refuse("Too many actions are waiting; wait for them to finish, then try again.", logged: "action queue full", action: action)
                return
            }
            queuedEvents.append((node, action, values))
            if !isRunningEvents {
                isRunningEvents = true
                Task { [weak self] in
                    while let (node, action, values) = await self?.nextQueuedEvent() { await self?.run(node, action: action, values: values) }
                }
            }
        case .window(let module, let start):
            // The page scrolled a long list: where its window should start now.
            guard configuration.rowWindow != nil, (0...Self.largestRowIndex).contains(start), let scene, scene.modules.contains(module) else {
                refuse("A window names a module of this page and a row.", logged: "bad window message")
                return
            }
            guard bucket.take() else {
                refuse("Too many actions at once; wait a moment.", logged: "window flood")
                return
            }
            refusedInARow = 0
            pendingMove = (module, start)
            if !isMovingWindow {
                isMovingWindow = true
                Task { [weak self] in
                    while let (module, start) = await self?.nextWindowMove() { await self?.moveWindow(of: module, to: start) }
                }
            }
        case .answer(let question, let accept):
            guard let waiting = confirmations.removeValue(forKey: question) else {
                refuse("No question is waiting for that answer.", logged: "answer to no confirmation")
                return
            }
            waiting.resume(returning: accept)
        case .resync:
            guard resyncBucket.take() else {
                refuse("Too many requests for the whole page; wait a moment.", logged: "resync flood")
                return
            }
            await resetPage()
        case .visibility(let node, let fraction):
            guard node.rawValue.utf8.count <= 512, let scene else {
                refuse("A visibility report names a node of this page.", logged: "visibility report with an overlong node")
                return
            }
            guard reportBucket.take() else {
                refuse("Too many visibility reports at once; nothing was counted.", logged: "visibility flood")
                return
            }
            do {
                let deadline = try await scene.reportVisibility(of: node, fraction: fraction, at: .now)
                refusedInARow = 0
                if let deadline { scheduleImpressions(at: deadline) }
            } catch {
                refuse("That is not on this page; nothing was counted.", logged: "visibility of \(node.rawValue.quoted): \(error.message)")
            }
        }
    }

    /// Whether the session has this action already: finished (the page did not hear back
    /// before its socket went; it is answered again), or waiting or running (it is answered
    /// when done). A copy of an action is never queued beside it.
    private func isKnown(_ action: ActionKey) -> Bool {
        if finishedActions.contains(action) {
            acknowledge(action)
            return true
        }
        return runningAction == action || queuedEvents.contains(where: { $0.action == action })
    }

    /// Counts impressions at the scene's next deadline (one timer at a time, the earliest).
    private func scheduleImpressions(at deadline: ContinuousClock.Instant) {
        if let scheduled = impressionDeadline, scheduled <= deadline { return }
        impressionTimer?.cancel()
        impressionDeadline = deadline
        impressionTimer = Task { [weak self] in
            try? await Task.sleep(until: deadline, clock: .continuous)
            guard !Task.isCancelled else { return }
            await self?.countImpressions()
        }
    }

    private func countImpressions() async {
        impressionDeadline = nil
        impressionTimer = nil
        guard let scene, !hasEnded else { return }
        if let next = await scene.recordImpressions(dueAt: .now) { scheduleImpressions(at: next) }
    }

    /// Whether a socket is attached.
    var isAttached: Bool { socket != nil }

    /// Whether a page that keeps sending what is refused should be disconnected.
    var isAbusive: Bool { refusedInARow > 100 }

    private func refuse(_ reason: String, logged: String, action: ActionKey? = nil) {
        refusedInARow += 1
        logger.notice("page \(id) (\(sceneID), viewer \(viewer ?? "signed out")): refused \(logged)")
        send(.refused(message: reason, action: action))
        // A refused action is finished with too: the page must not send it again.
        if let action { acknowledge(action) }
    }

    /// How many activated controls may wait to run; one more is refused with a message.
    static let queuedActions = 64

    /// The largest row index a page may ask a window to start at.
    static let largestRowIndex = 100_000_000

    /// Gives every module of a scene not yet started the page's windows (the first rows, or
    /// where the page had scrolled to), so its first load fetches them.
    func setInitialWindows(of scene: SceneInstance) async {
        guard let rows = configuration.rowWindow else { return }
        for module in scene.modules {
            // A new page shows a list's first page, as the scene asks; scrolling moves a
            // window of `rows`. A page made again at a scrolled place keeps its window.
            let first = windowStarts[module] == nil ? min(rows, scene.pageSizes[module] ?? rows) : rows
            await scene.setWindow(RowWindow(start: windowStarts[module] ?? 0, count: first), for: module)
        }
    }

    /// Where the page last asked a long list's window to be, or `nil` (and no task moving
    /// windows) when no move waits.
    private func nextWindowMove() -> (ModuleID, Int)? {
        guard let move = pendingMove, !hasEnded else {
            isMovingWindow = false
            return nil
        }
        pendingMove = nil
        return move
    }

    /// Moves the window of a module's long list; the change reaches the page as patches.
    private func moveWindow(of module: ModuleID, to start: Int) async {
        guard let scene, !hasEnded, let rows = configuration.rowWindow else { return }
        windowStarts[module] = start
        await scene.setWindow(RowWindow(start: start, count: rows), for: module)
        sendResumeToken()
    }

    /// The next event the page asked for, or `nil` (and no task running events) when none
    /// waits. Events run one after another in order, apart from the socket, so that a
    /// confirmation's answer can arrive while an event waits for it.
    ///
    /// The event counts as running from the moment it leaves the queue: a copy of its action
    /// that arrives before ``run(_:action:values:)`` starts finds it running, not gone.
    private func nextQueuedEvent() -> (NodeID, ActionKey?, [String: String]?)? {
        guard !queuedEvents.isEmpty, !hasEnded else {
            isRunningEvents = false
            return nil
        }
        let next = queuedEvents.removeFirst()
        runningAction = next.action
        return next
    }

    /// Runs an event the page asked for, against the page's current tree, with its action
    /// key bound (a store records it with the action's writes); then tells the page it is
    /// done, with a resume token that includes what the event changed.
    private func run(_ node: NodeID, action key: ActionKey?, values: [String: String]? = nil) async {
        defer { runningAction = nil }
        guard let scene, !hasEnded else { return }
        // The ledger knows the key as this viewer's: another viewer's page may have used it.
        let recorded = key?.scoped(toViewer: viewer, visitor: anonymousID)
        if let key, let recorded, isResumed, await hasApplied(recorded) {
            // The server that went away applied it before the page heard back.
            logger.info("page \(id): action \(key) was applied before the page resumed here; not applied again")
            acknowledge(key)
            return
        }
        // One call finds the control in the page's current tree, checks a form's text against
        // the form on this page (its fields, their rules and sizes; the module checks it
        // again) and sends the event, with the action's key bound for the store's ledger.
        let activation = await ActionKey.run(as: recorded) { () async -> Result<EventOutcome, SceneInstance.ActivationRefusal> in
            do throws(SceneInstance.ActivationRefusal) { return .success(try await scene.activate(node, values: values)) } catch { return .failure(error) }
        }
        let outcome: EventOutcome
        switch activation {
        case .success(let sent):
            outcome = sent
        case .failure(.noControl):
            refuse("That control is not on this page.", logged: "unknown control \(node.rawValue.quoted)", action: key)
            return
        case .failure(.takesNoText):
            refuse("That control takes no text.", logged: "text sent to control '\(node)', which takes none", action: key)
            return
        case .failure(.invalidText(let problems)):
            let sample = (values ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.quoted(limit: 60))" }.joined(separator: " ")
            refuse("The form was not sent: \(problems)", logged: "form '\(node)' refused (\(problems)); it sent \(sample)", action: key)
            return
        }
        refusedInARow = 0
        let moved = remember(outcome.event)
        if let key {
            acknowledge(key)
        } else if moved {
            sendResumeToken()
        }
    }

    // MARK: Resuming elsewhere

    /// Whether the page gets resume tokens: any page but a preview frame (an HTML page and a
    /// view-tree client alike resume from them on a server that lost their session).
    private var issuesResumeTokens: Bool { !isPreview }

    /// What the page would need to be made again on another server, now.
    var resumeToken: ResumeToken {
        ResumeToken(
            session: id, viewer: viewer, visitor: anonymousID, scene: sceneID, arguments: arguments, tabs: selectedTabs,
            pagesLoaded: Dictionary(uniqueKeysWithValues: pagesLoaded.map { ($0.key.rawValue, $0.value) }),
            windows: Dictionary(uniqueKeysWithValues: windowStarts.map { ($0.key.rawValue, $0.value) }),
            actions: finishedActions.newest(ResumeToken.keptActions).map(\.rawValue), issued: Int(Date().timeIntervalSince1970),
            nonce: ActionKey.random().rawValue, locale: locale, readsViewTree: format == .viewTree ? true : nil)
    }

    /// The page's resume token as the page keeps it, signed with the site's key; `nil` for
    /// a page that gets none.
    func signedResumeToken() -> String? {
        issuesResumeTokens ? resumeToken.signed(with: configuration.cookieSecret) : nil
    }

    /// Takes in what a resume token kept (before the scene is made again from it).
    func restore(from token: ResumeToken) {
        isResumed = true
        selectedTabs = token.tabs
        pagesLoaded = Dictionary(uniqueKeysWithValues: token.pagesLoaded.map { (ModuleID($0.key), $0.value) })
        windowStarts = Dictionary(uniqueKeysWithValues: token.windows.map { (ModuleID($0.key), $0.value) })
        for text in token.actions {
            if let key = try? ActionKey(validating: text) { finishedActions.insert(key) }
        }
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

    /// Keeps what an event that ran changed of the page's place (a tab, a page loaded);
    /// returns whether it was such an event.
    private func remember(_ event: Event) -> Bool {
        switch event.builtIn {
        case .selectTab(let tab, let switchID)?:
            selectedTabs[switchID] = tab
        case .loadMore(let module)?:
            pagesLoaded[module] = (pagesLoaded[module] ?? 0) + 1
        case .refresh(let module)?, .retry(let module)?:
            // A refresh or a retry starts the list again from its first page.
            pagesLoaded[module] = nil
        case nil:
            return false
        }
        return true
    }

    /// Whether the site's ledger recorded the action (a failure to ask counts as not: the
    /// store's own record refuses nothing, so the action runs, as it would have before).
    private func hasApplied(_ key: ActionKey) async -> Bool {
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
    private func acknowledge(_ key: ActionKey) {
        finishedActions.insert(key)
        if !unannouncedActions.contains(key) { unannouncedActions.append(key) }
        sendResumeToken()
    }

    /// Sends the attached page a fresh resume token and the actions finished since the last.
    private func sendResumeToken() {
        guard socket != nil, !hasEnded else { return }
        if let token = signedResumeToken() { write(PageProtocol.ServerMessage.resume(token: token, applied: unannouncedActions).text) }
        unannouncedActions = []
    }

    // MARK: Life

    /// Tidies the session at `now`: lets go of messages kept for replay past their age;
    /// returns whether the session has outlived its socket's grace period or never got one
    /// (the server then ends it). The server calls it every few seconds.
    func tidy(now: ContinuousClock.Instant) -> Bool {
        letGoOfOldMessages(now: now)
        return isExpired(now: now)
    }

    /// Whether the session has outlived its socket's grace period or never got one.
    private func isExpired(now: ContinuousClock.Instant) -> Bool {
        if socket != nil { return false }
        if let detachedSince { return now - detachedSince > configuration.reconnectGrace }
        return now - created > configuration.attachTimeout
    }

    /// Ends the session: the scene is left and the socket closed.
    func end() async {
        guard !hasEnded else { return }
        hasEnded = true
        letGoOfSocket()
        queuedEvents = []
        pendingMove = nil
        for (_, waiting) in confirmations { waiting.resume(returning: false) }
        confirmations = [:]
        impressionTimer?.cancel()
        impressionTimer = nil
        await scene?.leave()
    }

    /// Puts a new scene in place of the current one (a scene file changed), keeping the
    /// selected tabs, and gives the page the whole scene.
    func replaceScene(using registry: SceneRegistry) async throws(SceneryError) {
        let next = try registry.instantiate(sceneID, for: context, host: host)
        mirror.prepareToAttach()
        await setInitialWindows(of: next)
        await next.start()
        if let previous = scene {
            for tabSwitch in previous.tabSwitches {
                guard let selected = await previous.selectedTab(of: tabSwitch.id),
                    next.tabSwitches.contains(where: { $0.id == tabSwitch.id && $0.tabs.contains(selected) })
                else { continue }
                await next.send(Event(.selectTab(selected, inSwitch: tabSwitch.id), from: NodeID(tabSwitch.id)))
            }
            await previous.leave()
            mirror = SceneMirror(keepsTree: false)  // what it held was the old scene's; the new scene's come from here on
        }
        await next.appear()
        scene = next
        if !takeIn(await next.takeBaseline(), sendingWholeScene: true) { await resetPage() }
    }
}
