import Scenery
import SceneryPageProtocol

/// The terminal client's side of one live page: the protocol's ``PageClient`` (the tree, the
/// actions not yet answered, the resume token, the question waiting) over a WebSocket, which
/// a socket to a server that lost the page (it restarted, or it is another server of the
/// site) replaces, sending the unanswered actions again.
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
        guard let message = client.send(message) else { return false }
        write(message)
        return true
    }

    /// Answers the server's waiting question (kept for the action it holds up).
    mutating func answer(_ accept: Bool) {
        if let message = client.answer(accept) { write(message) }
    }

    /// Takes in a server message, sending at once what it calls for (a resync, an answer
    /// given before): what it changed in the tree.
    mutating func take(_ message: PageProtocol.ServerMessage) -> PageClient.Change {
        let reception = client.receive(message)
        if let reply = reception.reply { write(reply) }
        return reception.change
    }

    /// Opens a new socket for the page, from the last update applied, with the resume
    /// token; then sends again every action not answered, under its own key (one the server
    /// already did is answered, not done again).
    mutating func reconnect(with client: LiveSceneClient) throws(CommandFailure) {
        socket.close()
        socket = try client.connect(session: session, since: self.client.mirror.sequence, resume: self.client.resumeToken)
        for message in self.client.unanswered { write(message) }
    }

    private func write(_ message: PageProtocol.ClientMessage) {
        if let text = try? message.jsonText() { socket.send(text) }
    }
}
