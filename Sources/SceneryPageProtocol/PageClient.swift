import Scenery

/// A client's side of one live page, as a state machine over the page protocol: the scene's
/// tree (kept by `SceneMirror`), the actions sent and not yet answered (each under its own
/// key, so one sent again on a new socket is applied once), the latest resume token, the
/// question waiting for the person, and their answers by action.
///
/// It reads no socket: a host hands it what the server sent, and gives it a
/// ``PageTransport`` to write on (or writes what the methods without one return);
/// `scenery connect`, the server test kit and a native app differ only in their transport
/// and in how they show the page.
///
/// ```swift
/// var page = PageClient(tree: opened.root, sequence: opened.sequence)
/// page.send(.event(node: "blogs/blog.26.like"), on: socket)
///
/// let reception = page.receive(try PageProtocol.ServerMessage(jsonText: received), replyingOn: socket)
/// if case .updated(let node) = reception.change { redraw(node) }
/// if let question = page.question { show(question.confirmation) }  // then page.answer(true, on: socket)
///
/// // On a new socket (from page.mirror.sequence, with page.resumeToken):
/// page.resendUnanswered(on: newSocket)
/// ```
public struct PageClient {
    /// The scene's tree and the number of the last update it includes.
    public private(set) var mirror = SceneMirror()
    /// What the server last gave to resume the page with (`nil` before the first).
    public private(set) var resumeToken: String?
    /// The question the server asked and the person has not answered, if any.
    public private(set) var question: Question?
    /// Events sent and not yet answered, in the order sent.
    private var pending: [(key: ActionKey, message: PageProtocol.ClientMessage)] = []
    /// The person's answers to the server's questions, by the action each held up, until the
    /// server finishes with the action: a server that lost the page asks again for an action
    /// sent again, and is answered as before.
    private var answers: [ActionKey: Bool] = [:]
    /// The most actions that may wait for their answer at once.
    public let largestPending: Int

    /// A question of the server's: its number, what it asks, and the action it holds up.
    public struct Question: Sendable, Equatable {
        /// The number the answer names.
        public var number: Int
        /// What the server asks.
        public var confirmation: Confirmation
        /// The action it holds up, if any.
        public var action: ActionKey?

        public init(number: Int, confirmation: Confirmation, action: ActionKey?) {
            self.number = number
            self.confirmation = confirmation
            self.action = action
        }
    }

    /// What a server message meant for the page.
    public struct Reception {
        /// What changed in the tree.
        public var change: Change
        /// A message to send the server at once (a resync for an update that does not apply,
        /// or the answer already given to a question asked again), if any.
        public var reply: PageProtocol.ClientMessage?
        /// The actions the server finished with in this message (done, refused, or found
        /// done before).
        public var finished: [ActionKey] = []
    }

    /// What a server message changed in the tree.
    public enum Change {
        /// An update applied: the subtree it changed, as the tree now has it.
        case updated(ViewNode)
        /// The whole scene, taken as the new baseline.
        case whole(ViewTreeDocument)
        /// Nothing in the tree (already applied, held, or a message about something else).
        case none
    }

    /// A page opened as a view-tree document, at its update number.
    ///
    /// - Parameters:
    ///   - tree: the scene's tree as the page was opened with it.
    ///   - sequence: the number of the last update that tree includes.
    ///   - largestPending: the most actions that may wait for their answer at once (the page
    ///     script's bound is 20).
    public init(tree: ViewNode, sequence: Int, largestPending: Int = 20) {
        self.largestPending = largestPending
        mirror.attach(tree: tree, sequence: sequence)
    }

    /// A page whose tree this client does not keep (an HTML page), for its actions and
    /// questions alone.
    public init(largestPending: Int = 20) {
        self.largestPending = largestPending
    }

    /// Whether an action is still waiting for its answer (so a change that arrives now may be
    /// this client's own).
    public var isWaitingForAnswers: Bool { !pending.isEmpty }

    /// How many actions wait for their answer.
    public var waitingCount: Int { pending.count }

    /// The events sent and not answered, in the order sent, under their keys: what to send
    /// again on a new socket (the server answers one it already did rather than do it again).
    public var unanswered: [PageProtocol.ClientMessage] { pending.map(\.message) }

    /// The message to send for `message`: an event gets a new action key (any key it had is
    /// replaced) and is kept until the server finishes with it; any other message goes as it is.
    ///
    /// - Returns: `nil` when ``largestPending`` actions already wait (send nothing).
    public mutating func send(_ message: PageProtocol.ClientMessage) -> PageProtocol.ClientMessage? {
        guard case .event(let node, _, let values) = message else { return message }
        guard pending.count < largestPending else { return nil }
        let key = ActionKey.random()
        let keyed = PageProtocol.ClientMessage.event(node: node, action: key, values: values)
        pending.append((key, keyed))
        return keyed
    }

    /// Answers the waiting question; the answer is kept for the action it holds up.
    ///
    /// - Returns: the message to send, or `nil` when no question waits.
    public mutating func answer(_ accept: Bool) -> PageProtocol.ClientMessage? {
        guard let question else { return nil }
        self.question = nil
        if let action = question.action { answers[action] = accept }
        return .answer(question: question.number, accept: accept)
    }

    /// Takes in a server message: an update (a resync to send when one is missing or does not
    /// apply), a whole tree, a question (answered at once when the person already answered it
    /// for the same action), a resume token with the actions the server finished with, a
    /// refusal of an action.
    public mutating func receive(_ message: PageProtocol.ServerMessage) -> Reception {
        switch message {
        case .patches(let sequence, _, let node, let patches):
            switch mirror.receive(sequence: sequence, patches: patches) {
            case .applied:
                return Reception(change: mirror.tree?.node(withID: node).map(Change.updated) ?? .none)
            case .alreadyApplied, .held:
                return Reception(change: .none)
            case .needsBaseline:
                return Reception(change: .none, reply: .resync)
            }
        case .tree(let sequence, let document):
            mirror = SceneMirror()
            mirror.attach(tree: document.root, sequence: sequence)
            return Reception(change: .whole(document))
        case .confirm(let number, let confirmation, let action):
            if let given = action.flatMap({ answers[$0] }) {
                question = nil
                return Reception(change: .none, reply: .answer(question: number, accept: given))
            }
            question = Question(number: number, confirmation: confirmation, action: action)
            return Reception(change: .none)
        case .resume(let token, let applied):
            resumeToken = token
            finish(applied)
            return Reception(change: .none, finished: applied)
        case .refused(_, let action?):
            finish([action])
            return Reception(change: .none, finished: [action])
        default:
            return Reception(change: .none)
        }
    }

    /// Whether the person already answered a question for `action` (a question asked again
    /// is answered by ``receive(_:)`` with it).
    public func answer(for action: ActionKey?) -> Bool? {
        action.flatMap { answers[$0] }
    }

    private mutating func finish(_ actions: [ActionKey]) {
        let finished = Set(actions)
        pending.removeAll { finished.contains($0.key) }
        for key in actions { answers[key] = nil }
    }
}
