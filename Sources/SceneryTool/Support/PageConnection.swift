import Scenery
import SceneryPageProtocol

/// The terminal client's side of one live page, in the page protocol the server speaks:
/// the scene's tree as the shared ``SceneMirror`` keeps it, the actions sent and not yet
/// answered (each under its own key, so one sent again after a reconnect is applied once),
/// and the latest resume token, with which a socket to a server that lost the page (it
/// restarted, or it is another server of the site) makes the page again.
struct PageConnection {
    /// The page's session on the server (for `/live`).
    let session: String
    /// The scene's tree and the number of the last update it includes.
    private(set) var mirror = SceneMirror()
    /// What the server last gave to resume the page with (`nil` before the first).
    private(set) var resumeToken: String?
    /// Events sent and not yet answered, in the order sent.
    private(set) var pending: [(key: ActionKey, message: PageProtocol.ClientMessage)] = []
    /// The socket in use.
    private(set) var socket: WebSocketClient
    /// The person's answers to the server's questions, by the action each held up, until
    /// the server finishes with the action: a server that went away took its question, and
    /// the next one, sent the action again, asks again.
    private var answers: [ActionKey: Bool] = [:]

    /// The most actions that may wait for an answer at once (the page script's bound).
    static let largestPending = 20

    /// A page opened as a view-tree document (`/api/scenes/…`) and its socket.
    init(session: String, tree: ViewNode, sequence: Int, socket: WebSocketClient) {
        self.session = session
        self.socket = socket
        mirror.attach(tree: tree, sequence: sequence)
    }

    /// Whether an action of this client is still waiting for its answer (so a change that
    /// arrives now may be its own, not someone else's).
    var isWaitingForAnswers: Bool { !pending.isEmpty }

    /// Sends a message; an event goes under a new action key and is kept until the server
    /// says it is finished with it.
    ///
    /// - Returns: `false` when too many actions wait for their answer (nothing was sent).
    @discardableResult
    mutating func send(_ message: PageProtocol.ClientMessage) -> Bool {
        var message = message
        if case .event(let node, _, let values) = message {
            guard pending.count < Self.largestPending else { return false }
            let key = ActionKey.random()
            message = .event(node: node, action: key, values: values)
            pending.append((key, message))
        }
        if let text = try? message.jsonText() { socket.send(text) }
        return true
    }

    /// Answers the server's question `question`, which held up `action`; the answer is kept
    /// for `action` (``answer(for:)``).
    mutating func answer(_ question: Int, accept: Bool, for action: ActionKey?) {
        if let action { answers[action] = accept }
        send(.answer(question: question, accept: accept))
    }

    /// The answer the person already gave to the question holding up `action`, if any.
    func answer(for action: ActionKey?) -> Bool? {
        action.flatMap { answers[$0] }
    }

    /// What a message from the server means for the tree.
    enum Change {
        /// An update applied: the subtree it changed, as the tree now has it.
        case updated(ViewNode)
        /// The whole scene, taken as the new baseline.
        case whole(ViewTreeDocument)
        /// Nothing to show (already applied, or held, or a message about something else).
        case none
    }

    /// Takes in a server message that concerns the page's state: updates (asking for the
    /// whole scene when one is missing or does not apply), whole trees, and resume tokens
    /// with the actions the server finished with.
    mutating func take(_ message: PageProtocol.ServerMessage) -> Change {
        switch message {
        case .patches(let sequence, _, let node, let patches):
            switch mirror.receive(sequence: sequence, patches: patches) {
            case .applied:
                guard let changed = mirror.tree?.node(withID: node) else { return .none }
                return .updated(changed)
            case .alreadyApplied, .held:
                return .none
            case .needsBaseline:
                send(.resync)
                return .none
            }
        case .tree(let sequence, let document):
            mirror = SceneMirror()
            mirror.attach(tree: document.root, sequence: sequence)
            return .whole(document)
        case .resume(let token, let applied):
            resumeToken = token
            let finished = Set(applied)
            pending.removeAll { finished.contains($0.key) }
            for key in applied { answers[key] = nil }
            return .none
        case .refused(_, let action?):
            pending.removeAll { $0.key == action }
            answers[action] = nil
            return .none
        default:
            return .none
        }
    }

    /// Opens a new socket for the page, from the last update applied, with the resume
    /// token; then sends again every action not answered, under its own key (one the server
    /// already did is answered, not done again).
    mutating func reconnect(with client: LiveSceneClient) throws(CommandFailure) {
        socket.close()
        socket = try client.connect(session: session, since: mirror.sequence, resume: resumeToken)
        for (_, message) in pending {
            if let text = try? message.jsonText() { socket.send(text) }
        }
    }
}
