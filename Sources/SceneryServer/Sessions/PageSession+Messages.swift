import Foundation
import Logging
import NIOWebSocket
import Scenery
import SceneryPageProtocol
import Tracing

/// Page → scene: what the page sends, decoded once, checked, and run in order: a control
/// activated, a window moved, an answer, a resync, a visibility report.
extension PageSession {
    /// Attaches a socket (closing the one attached before): replays what the page missed
    /// since `since`, or the whole scene. Returns the connection's number.
    func attach(since: Int, socket newSocket: any PageSocket) -> Int {
        letGoOfSocket()
        let connection = attachment.attach(newSocket)
        metrics.socketsOpen.increment()
        if since < pageSequence {
            if let missed = replay.missed(since: since) {
                for text in missed { write(text) }
            } else {
                Task { await resetPage() }
            }
        } else if since > pageSequence {
            // The page claims messages this session never sent (another server, a forged
            // number): give it the whole scene.
            Task { await resetPage() }
        }
        // What the page was asked and has not answered, asked again (the page keeps its open
        // dialog for it, by the action it holds up).
        for asked in questions.asked { write(asked.text) }
        sendResumeToken()
        return connection
    }

    /// Whether another socket may attach now (a page reconnecting in a loop may not).
    func mayAttach(now: ContinuousClock.Instant = .now) -> Bool {
        rates.allows(.attach, now: now)
    }

    /// The socket `connection` closed.
    func detach(_ connection: Int) {
        guard attachment.detach(connection, now: .now) else { return }
        metrics.socketsOpen.decrement()
        // A question stays open: the page, back within the grace period, is asked again.
    }

    /// What socket `connection` sent; returns `false`, reading nothing, when that socket
    /// is no longer the page's (a newer one took over, or it was let go).
    func receive(_ text: String, from connection: Int) async -> Bool {
        guard attachment.isCurrent(connection) else { return false }
        await receive(text)
        return true
    }

    /// Takes what socket `connection` sent, as every transport of a page socket does (the
    /// WebSocket's inbox, the test kit's in-process socket), and says whether the socket
    /// must close now, with its code and reason: normally when it is no longer the page's,
    /// as a policy violation when the page keeps sending what is refused; `nil` to read on.
    func take(_ text: String, from connection: Int) async -> (code: WebSocketErrorCode, reason: String?)? {
        guard await receive(text, from: connection) else { return (.normalClosure, nil) }
        return attachment.isAbusive ? (.policyViolation, "Too many refused messages.") : nil
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
            guard rates.allows(.event) else {
                refuse("Too many actions at once; wait a moment.", logged: "event flood", action: action)
                return
            }
            if let action, isKnown(action) { return }
            // Whether the control is on the page is asked when the event runs, against the
            // tree as it is then: once per event, in the same call that sends it.
            queue(.control(node: node, action: action, values: values))
        case .window(let module, let start):
            // The page scrolled a long list: where its window should start now.
            guard configuration.rowWindow != nil, (0...Self.largestRowIndex).contains(start), let scene, scene.modules.contains(module) else {
                refuse("A window names a module of this page and a row.", logged: "bad window message")
                return
            }
            // A scroll sends moves in bursts, not a person's actions: over their own rate they
            // are dropped without a word (the page asks again for a window it was not sent),
            // and they never spend the allowance a person's controls have.
            guard rates.allows(.windowMove) else {
                decline(logged: "window flood")
                return
            }
            attachment.accepted()
            if windowMoves.put((module, start)) {
                Task { [self] in
                    while let (module, start) = nextWindowMove() { await moveWindow(of: module, to: start) }
                }
            }
        case .answer(let question, let accept):
            guard questions.answer(question, accept: accept) else {
                refuse("No question is waiting for that answer.", logged: "answer to no confirmation")
                return
            }
        case .resync:
            guard rates.allows(.resync) else {
                refuse("Too many requests for the whole page; wait a moment.", logged: "resync flood")
                return
            }
            await resetPage()
        case .visibility(let node, let fraction):
            // Bookkeeping the page does on its own (a row that just scrolled away, a tab just
            // hidden): a report the server declines is dropped quietly, never shown to the
            // person, who did nothing.
            guard node.rawValue.utf8.count <= 512, let scene else {
                decline(logged: "visibility report with an overlong node")
                return
            }
            guard rates.allows(.report) else {
                decline(logged: "visibility flood")
                return
            }
            do {
                let deadline = try await scene.reportVisibility(of: node, fraction: fraction, at: .now)
                if let deadline { scheduleImpressions(at: deadline) }
            } catch {
                decline(logged: "visibility of \(node.rawValue.quoted): \(error.message)")
            }
        case .problem(let kind, let text, let node):
            await log(problem: kind, text, at: node)
        case .trace:
            // What the inspector lists, for a terminal client: on a development server only,
            // after the events the page sent before it.
            guard configuration.enablesInspector else {
                refuse("This server shows no traces: start it with --inspect (development only).", logged: "trace asked of a server without the inspector")
                return
            }
            guard rates.allows(.resync) else {
                refuse("Too many requests for the trace; wait a moment.", logged: "trace flood")
                return
            }
            queue(.trace)
        }
    }

    /// Queues what the page asked, behind what it asked before; a task runs the queue while
    /// it has work (on the page: it holds the session only while something waits).
    private func queue(_ event: ActionQueue.Event) {
        switch actions.add(event) {
        case .full:
            refuse("Too many actions are waiting; wait for them to finish, then try again.", logged: "action queue full", action: event.action)
        case .startsRunner:
            Task { [self] in
                while let event = nextQueuedEvent() {
                    switch event {
                    case .control(let node, let action, let values): await run(node, action: action, values: values)
                    case .trace: if scene != nil { send(.trace(events: recentEvents)) }
                    }
                }
            }
        case .queued:
            break
        }
    }

    /// A problem the page met itself, for the scene's author: logged as a warning with the
    /// scene file's line of the module that shows `node`, its text quoted on one line and cut
    /// to ``largestLoggedProblem`` characters. A few a page (``PageRates``); past them,
    /// dropped quietly. Never sent to any page.
    func log(problem kind: PageProtocol.ClientMessage.ProblemKind, _ text: String, at node: NodeID?) async {
        guard rates.allows(.problem) else {
            decline(logged: "problem report flood")
            return
        }
        metrics.clientProblems.increment()
        var whereFound = "scene \(sceneID)"
        // Where the module was placed: a look-up, no call into the module.
        if let node, node.rawValue.utf8.count <= 512, let placement = await scene?.placement(of: node) {
            whereFound = placement
        }
        let quoted = text.quoted(limit: Self.largestLoggedProblem)
        logger.warning("page \(id) (\(sceneID), viewer \(viewer ?? "signed out")): its \(kind.rawValue) problem at \(whereFound): \(quoted)")
        // The inspector (`serve --inspect`) lists the newest few with the page's events.
        guard configuration.enablesInspector else { return }
        problemsReported.append("\(kind.rawValue) problem at \(whereFound): \(quoted)")
        if problemsReported.count > Self.inspectedProblems { problemsReported.removeFirst() }
    }

    /// How many of a page's own problem reports the inspector lists.
    static let inspectedProblems = 5

    /// The most characters of a page's problem report that reach the log.
    static let largestLoggedProblem = 500

    /// Whether the session has this action already: finished (the page did not hear back
    /// before its socket went; it is answered again), or waiting or running (it is answered
    /// when done). A copy of an action is never queued beside it.
    func isKnown(_ action: ActionKey) -> Bool {
        if place.hasFinished(action) {
            acknowledge(action)
            return true
        }
        return actions.contains(action)
    }

    /// Counts impressions at the scene's next deadline (one timer at a time, the earliest).
    func scheduleImpressions(at deadline: ContinuousClock.Instant) {
        impressions.schedule(at: deadline) { [weak self] in await self?.countImpressions() }
    }

    func countImpressions() async {
        impressions.fired()
        guard let scene, !hasEnded else { return }
        if let next = await scene.recordImpressions(dueAt: .now) { scheduleImpressions(at: next) }
    }

    /// Whether a socket is attached.
    var isAttached: Bool { attachment.socket != nil }

    /// Drops a report the page made on its own (not something the person did), logged at
    /// debug level: the page is told nothing.
    func decline(logged: String) {
        logger.debug("page \(id) (\(sceneID), viewer \(viewer ?? "signed out")): declined \(logged)")
    }

    func refuse(_ reason: String, logged: String, action: ActionKey? = nil) {
        attachment.refused()
        metrics.messagesRefused.increment()
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
            let start = place.windowStart(of: module)
            let first = start == nil ? min(rows, scene.pageSizes[module] ?? rows) : rows
            await scene.setWindow(RowWindow(start: start ?? 0, count: first), for: module)
        }
    }

    /// Where the page last asked a long list's window to be, or `nil` (and no task moving
    /// windows) when no move waits.
    func nextWindowMove() -> (module: ModuleID, start: Int)? {
        hasEnded ? nil : windowMoves.take()
    }

    /// Moves the window of a module's long list; the change reaches the page as patches.
    func moveWindow(of module: ModuleID, to start: Int) async {
        guard let scene, !hasEnded, let rows = configuration.rowWindow else { return }
        place.moveWindow(of: module, to: start)
        await scene.setWindow(RowWindow(start: start, count: rows), for: module)
        sendResumeToken()
    }

    /// The next event the page asked for, or `nil` (and no task running events) when none
    /// waits. Events run one after another in order, apart from the socket, so that a
    /// confirmation's answer can arrive while an event waits for it.
    ///
    /// The event counts as running from the moment it leaves the queue: a copy of its action
    /// that arrives before ``run(_:action:values:)`` starts finds it running, not gone.
    func nextQueuedEvent() -> ActionQueue.Event? {
        hasEnded ? nil : actions.next()
    }

    /// Finds the control in `scene`'s current tree and sends its event.
    private func activate(
        _ node: NodeID, values: [String: String]?, in scene: SceneInstance
    ) async -> Result<EventOutcome, SceneInstance.ActivationRefusal> {
        do throws(SceneInstance.ActivationRefusal) { return .success(try await scene.activate(node, values: values)) } catch { return .failure(error) }
    }

    /// Runs an event the page asked for, against the page's current tree, with its action
    /// key bound (a store records it with the action's writes); then tells the page it is
    /// done, with a resume token that includes what the event changed.
    func run(_ node: NodeID, action key: ActionKey?, values: [String: String]? = nil) async {
        defer { actions.finishRunning() }
        guard let scene, !hasEnded else { return }
        let started = ContinuousClock.now
        // The inspector's trace (when on): the event's route, time and patches.
        var route: String?
        if trace != nil { trace?.beginEvent(at: started) }
        defer { if trace != nil { trace?.endEvent(route, at: .now) } }
        // An event is a trace of its own (a page lives for hours), linked to its page's.
        let span = tracer.startSpan("scenery.event", context: .topLevel, ofKind: .server)
        defer { span.end() }
        span.attributes["scenery.scene"] = sceneID
        if let openedIn { span.addLink(SpanLink(context: openedIn, attributes: [:])) }
        // The ledger knows the key as this viewer's: another viewer's page may have used it.
        let recorded = key?.scoped(toViewer: viewer, visitor: opening.anonymousID)
        if let key, let recorded, place.isResumed, await hasApplied(recorded) {
            // The server that went away applied it before the page heard back.
            logger.info("page \(id): action \(key) was applied before the page resumed here; not applied again")
            acknowledge(key)
            return
        }
        // One call finds the control in the page's current tree, checks a form's text against
        // the form on this page (its fields, their rules and sizes; the module checks it
        // again) and sends the event, with the action's key bound for the store's ledger.
        // The closure names the session, so it runs on the page: a closure that does not is
        // no one's, and would hop off the page and back.
        // The event's work (a store's queries) runs under its span.
        let activation = await ServiceContext.withValue(span.context) {
            await ActionKey.run(as: recorded) { await self.activate(node, values: values, in: scene) }
        }
        let outcome: EventOutcome
        switch activation {
        case .success(let sent):
            outcome = sent
        case .failure(.noControl):
            span.setStatus(SpanStatus(code: .error, message: "no such control"))
            refuse("That control is not on this page.", logged: "unknown control \(node.rawValue.quoted)", action: key)
            return
        case .failure(.takesNoText):
            span.setStatus(SpanStatus(code: .error, message: "text sent to a control that takes none"))
            refuse("That control takes no text.", logged: "text sent to control '\(node)', which takes none", action: key)
            return
        case .failure(.invalidText(let problems)):
            span.setStatus(SpanStatus(code: .error, message: "a form refused"))
            let sample = (values ?? [:]).sorted { $0.key < $1.key }.map { "\($0.key)=\($0.value.quoted(limit: 60))" }.joined(separator: " ")
            refuse("The form was not sent: \(problems)", logged: "form '\(node)' refused (\(problems)); it sent \(sample)", action: key)
            return
        }
        attachment.accepted()
        route = trace == nil ? nil : outcome.traceDescription
        sceneMetrics?.events.increment()
        sceneMetrics?.eventDuration.record(ContinuousClock.now - started)
        let moved = place.remember(outcome.event)
        if let key {
            acknowledge(key)
        } else if moved {
            sendResumeToken()
        }
    }
}
