import Scenery
import SceneryPageProtocol
import SceneryServer
import Synchronization

/// One page open on a server under test, as a person's browser or app would hold it: the
/// scene's tree kept by `SceneMirror` from what the server sends, and what else it said
/// (questions, announcements, refusals, navigation).
///
/// Act with ``tap(_:values:)`` and ``answer(_:)``; wait with ``waitUntil(_:timeout:_:)`` or
/// ``waitForAnswer(to:timeout:)``, which return when a message makes the condition hold (the
/// timeout is only a bound for a server that never answers, and fails the wait).
///
/// ```swift
/// let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
/// try await bob.tap("info/follow")
/// let asked = try await bob.waitUntil("the unfollow question") { $0.question != nil }
/// #expect(asked.question?.title == "Unfollow Alice Liddell?")
/// try await bob.answer(false)
/// ```
public final class TestPage: Sendable {
    /// How a page reads the scene (``PageTestClient/open(_:arguments:as:format:kinds:)``).
    public enum Format: Sendable, Hashable {
        /// As a view tree, the way an app or the terminal client does.
        case viewTree
        /// As the HTML page a browser gets, with DOM operations for updates.
        case html
    }

    /// What the page holds now.
    public struct State: Sendable {
        /// The scene's tree, with every update applied; for a page opened as HTML, an empty
        /// stack (read ``html`` and ``operations``).
        public internal(set) var tree: ViewNode
        /// The HTML page as the server sent it, or the last `reset` of its content; `nil` for
        /// a page that reads a view tree.
        public internal(set) var html: String?
        /// The number of the last update the tree includes.
        public internal(set) var sequence: Int
        /// Every message the server sent, in order.
        public internal(set) var messages: [PageProtocol.ServerMessage] = []
        /// The question waiting for ``TestPage/answer(_:)``, if any.
        public internal(set) var question: Confirmation?
        /// What other people's changes meant, as the page was told (the `announce` message).
        public internal(set) var announcements: [String] = []
        /// Why the server refused what the page sent, in its words.
        public internal(set) var refusals: [String] = []
        /// Where the server sent the page (`/scenes/…`).
        public internal(set) var navigations: [String] = []
        /// The actions the server has finished with (done, refused, or found done before).
        public internal(set) var answeredActions: Set<ActionKey> = []
        /// How the socket closed, once it has.
        public internal(set) var close: Close?

        /// The words the node with `id` shows: a text's text, a button's title; `nil` when the
        /// tree has no such node or it shows no words of its own.
        ///
        /// ```swift
        /// try await carol.waitUntil("Bob's like") { $0.text(of: "blogs/blog.26.likes") == "Likes: 1" }
        /// ```
        public func text(of id: NodeID) -> String? {
            switch tree.node(withID: id)?.kind {
            case .text(let text, _)?: text
            case .button(let title, _, _)?: title
            default: nil
            }
        }

        /// Every DOM operation the server sent an HTML page, in order; empty for a page that
        /// reads a view tree.
        ///
        /// ```swift
        /// let html = state.operations.compactMap(\.html).joined()
        /// #expect(html.contains("Likes: 1"))
        /// ```
        public var operations: [PageProtocol.DOMOperation] {
            messages.flatMap { message -> [PageProtocol.DOMOperation] in
                guard case .patch(_, let operations) = message else { return [] }
                return operations
            }
        }

        /// Whether the page shows a control with this id: in its tree, or for an HTML page
        /// anywhere in the HTML it was sent (a control's `data-node`, a form's `data-form`,
        /// a field's element).
        func hasControl(_ id: NodeID, in mirror: SceneMirror) -> Bool {
            guard let html else { return mirror.action(withID: id) != nil }
            let marks = ["data-node=\"\(id.rawValue)\"", "data-form=\"\(id.rawValue)\"", "id=\"\(id.rawValue)\" class=\"field\""]
            return ([html] + operations.compactMap(\.html)).contains { html in marks.contains { html.contains($0) } }
        }

        /// How a page socket closed: its code and reason.
        public struct Close: Sendable, Equatable {
            public var code: Int
            public var reason: String
        }
    }

    private struct Inner {
        var state: State
        /// The page in the protocol: its tree, the question waiting, the actions answered.
        /// A test may send any number of actions before their answers.
        var client: PageClient
        var waiters: [Int: (condition: @Sendable (State) -> Bool, continuation: CheckedContinuation<State?, Never>)] = [:]
        var nextWaiter = 0
        var transport: (any TestPageTransport)?
    }

    /// The page's session on the server.
    public let session: String
    /// How the page reads the scene.
    public let format: Format
    private let inner: Locked<Inner>

    init(session: String, tree: ViewNode, sequence: Int) {
        self.session = session
        format = .viewTree
        inner = Locked(Inner(state: State(tree: tree, sequence: sequence), client: PageClient(tree: tree, sequence: sequence, largestPending: .max)))
    }

    init(session: String, html: String, sequence: Int) {
        self.session = session
        format = .html
        inner = Locked(Inner(state: State(tree: .stack("", []), html: html, sequence: sequence), client: PageClient(largestPending: .max)))
    }

    func connect(_ transport: any TestPageTransport) {
        inner.withLock { $0.transport = transport }
    }

    /// What the page holds now.
    public var state: State { inner.withLock { $0.state } }

    /// The scene's tree now.
    public var tree: ViewNode { state.tree }

    /// Activates a control of the page, as a click or a tap does: an event under a new
    /// action key, with a form's text by field name. The server's answer comes later:
    /// ``waitForAnswer(to:timeout:)``.
    ///
    /// - Throws: ``PageTestError`` when the page has no control with that id.
    @discardableResult
    public func tap(_ control: NodeID, values: [String: String]? = nil) async throws -> ActionKey {
        let found = inner.withLock { $0.state.hasControl(control, in: $0.client.mirror) }
        guard found else {
            guard format == .viewTree else {
                throw PageTestError("The page has no control \(control.rawValue) (no control, form or field of that id in its HTML).")
            }
            let ids = tree.actions.map(\.id.rawValue).prefix(20).joined(separator: ", ")
            throw PageTestError("The page has no control \(control.rawValue); it has \(ids).")
        }
        let (event, transport) = inner.withLock { inner in
            (inner.transport.flatMap { inner.client.send(.event(node: control, values: values), on: $0) }, inner.transport)
        }
        guard let event, case .event(_, let key?, _) = event else {
            throw PageTestError("The page could not send an action for \(control.rawValue): its socket is not open.")
        }
        await transport?.flush()
        return key
    }

    /// Answers the question the server asked (a confirmation).
    ///
    /// - Throws: ``PageTestError`` when no question waits; wait for one first.
    public func answer(_ accept: Bool) async throws {
        let transport = try inner.withLock { inner -> (any TestPageTransport)? in
            guard inner.client.question != nil else {
                throw PageTestError("No question waits for an answer; wait until the state's question is set.")
            }
            inner.state.question = nil
            if let transport = inner.transport { inner.client.answer(accept, on: transport) }
            return inner.transport
        }
        await transport?.flush()
    }

    /// Sends any message of the protocol as it is (a window scroll, a resync, a
    /// visibility report).
    public func send(_ message: PageProtocol.ClientMessage) async {
        let transport = inner.withLock { inner in
            inner.transport.map { transport in
                transport.write((try? message.jsonText()) ?? #"{"type":"resync"}"#)
                return transport
            }
        }
        await transport?.flush()
    }

    /// Waits until the server is done with the action (it ran, was refused, or was found
    /// done before), and returns the page's state then.
    @discardableResult
    public func waitForAnswer(to action: ActionKey, timeout: Duration = .seconds(30)) async throws -> State {
        try await waitUntil("the answer to action \(action)", timeout: timeout) { $0.answeredActions.contains(action) }
    }

    /// Waits until `condition` holds for the page's state, checked now and after each
    /// message from the server; returns the state that satisfied it.
    ///
    /// - Throws: ``PageTestError`` when the socket closed or `timeout` passed first (a bound
    ///   for a server that never answers, not a pace: the wait ends on the message).
    @discardableResult
    public func waitUntil(_ what: String = "a condition", timeout: Duration = .seconds(30), _ condition: @escaping @Sendable (State) -> Bool) async throws
        -> State
    {
        let number = inner.withLock { inner -> Int in
            inner.nextWaiter += 1
            return inner.nextWaiter
        }
        let bound = Task { [weak self] in
            try? await Task.sleep(for: timeout)
            self?.release(number, with: nil)
        }
        defer { bound.cancel() }
        let satisfied = await withCheckedContinuation { (continuation: CheckedContinuation<State?, Never>) in
            let ready = inner.withLock { inner -> State?? in
                if condition(inner.state) { return .some(inner.state) }
                if inner.state.close != nil { return .some(nil) }
                inner.waiters[number] = (condition, continuation)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
        guard let satisfied else {
            let state = self.state
            throw PageTestError(
                state.close.map { "The page's socket closed (\($0.code) \($0.reason)) before \(what)." }
                    ?? "Waited \(timeout) for \(what); the page got \(state.messages.count) message(s), the last: \(state.messages.last?.type ?? "none")."
            )
        }
        return satisfied
    }

    private func release(_ number: Int, with state: State?) {
        let waiter = inner.withLock { $0.waiters.removeValue(forKey: number) }
        waiter?.continuation.resume(returning: state)
    }

    /// Closes the page's socket (its session keeps the page for a while, as for a browser
    /// that went away).
    public func close() async {
        await inner.withLock { $0.transport }?.close()
    }

    /// Takes in what the server sent.
    func deliver(_ event: InProcessPageEvent) {
        let ready = inner.withLock { inner -> [(CheckedContinuation<State?, Never>, State?)] in
            switch event {
            case .text(let text):
                guard let message = try? PageProtocol.ServerMessage(jsonText: text) else { return [] }
                take(message, into: &inner)
            case .closed(let code, let reason):
                inner.state.close = .init(code: code, reason: reason)
            }
            var ready: [(CheckedContinuation<State?, Never>, State?)] = []
            for (number, waiter) in inner.waiters {
                if waiter.condition(inner.state) {
                    ready.append((waiter.continuation, inner.state))
                } else if inner.state.close != nil {
                    ready.append((waiter.continuation, nil))
                } else {
                    continue
                }
                inner.waiters[number] = nil
            }
            return ready
        }
        for (continuation, state) in ready { continuation.resume(returning: state) }
    }

    private func take(_ message: PageProtocol.ServerMessage, into inner: inout Inner) {
        inner.state.messages.append(message)
        let reception = inner.transport.map { inner.client.receive(message, replyingOn: $0) } ?? inner.client.receive(message)
        inner.state.question = inner.client.question?.confirmation
        inner.state.answeredActions.formUnion(reception.finished)
        switch message {
        case .reset(_, let html):
            inner.state.html = html
        case .announce(let texts):
            inner.state.announcements += texts
        case .refused(let reason, _):
            inner.state.refusals.append(reason)
        case .navigate(let url):
            inner.state.navigations.append(url)
        default:
            break
        }
        if inner.state.html != nil {
            inner.state.sequence = message.sequence ?? inner.state.sequence
        } else {
            if let tree = inner.client.mirror.tree { inner.state.tree = tree }
            inner.state.sequence = inner.client.mirror.sequence
        }
    }
}
