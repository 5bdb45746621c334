import Scenery
import SceneryPageProtocol

/// The terminal client's side of one live page: the protocol's ``PageClient`` (the tree, the
/// actions not yet answered, the resume token, the question waiting) over a WebSocket, its
/// ``PageTransport``. A socket to a server that lost the page (it restarted, or it is another
/// server of the site) replaces it, and the unanswered actions go again.
struct PageConnection {
    /// The page's session on the server (for `/live`).
    let session: String
    /// The page's state in the protocol.
    private(set) var client: PageClient
    /// The socket in use.
    private(set) var socket: WebSocketClient

    /// A page opened as a view-tree document (`/api/scenes/…`) and its socket.
    init(session: String, tree: ViewNode, sequence: Int, socket: WebSocketClient) {
        self.session = session
        self.socket = socket
        client = PageClient(tree: tree, sequence: sequence)  // at most 20 waiting, as the page script
    }

    /// The scene's tree and the number of the last update it includes.
    var mirror: SceneMirror { client.mirror }

    /// Whether an action of this client is still waiting for its answer (so a change that
    /// arrives now may be its own, not someone else's).
    var isWaitingForAnswers: Bool { client.isWaitingForAnswers }

    /// Sends a message; an event goes under a new action key and is kept until the server
    /// says it is finished with it.
    ///
    /// - Returns: `false` when too many actions wait for their answer (nothing was sent).
    @discardableResult
    mutating func send(_ message: PageProtocol.ClientMessage) -> Bool {
        client.send(message, on: socket) != nil
    }

    /// Answers the server's waiting question (kept for the action it holds up).
    mutating func answer(_ accept: Bool) {
        client.answer(accept, on: socket)
    }

    /// Takes in a server message, sending at once what it calls for (a resync, an answer
    /// given before): what it changed in the tree.
    mutating func take(_ message: PageProtocol.ServerMessage) -> PageClient.Change {
        client.receive(message, replyingOn: socket).change
    }

    /// Opens a new socket for the page, from the last update applied, with the resume
    /// token; then sends again every action not answered, under its own key (one the server
    /// already did is answered, not done again).
    mutating func reconnect(with client: LiveSceneClient) throws(CommandFailure) {
        socket.close()
        socket = try client.connect(session: session, since: self.client.mirror.sequence, resume: self.client.resumeToken)
        self.client.resendUnanswered(on: socket)
    }
}

extension WebSocketClient: PageTransport {
    /// Writes a message as a text frame (dropped when the socket is gone: the page sends
    /// its unanswered actions again on the next).
    func write(_ text: String) { send(text) }
}
