import Scenery

/// The one part of a live page's client a host supplies: where the page's messages to its
/// server are written. A ``PageClient`` keeps the page's state in the protocol; with a
/// transport, it also sends what that state calls for (an event under its key, an answer, a
/// resync, the actions to send again on a new socket).
///
/// A WebSocket conforms by writing a text frame; a test's in-process connection or a native
/// app's socket the same way. Messages must reach the server in the order written (a resync
/// after the event it follows, an answer after its question's event): a transport that
/// writes from another task queues the texts and writes them in turn.
///
/// ```swift
/// struct Socket: PageTransport {
///     let webSocket: MyWebSocket
///     func write(_ text: String) { webSocket.sendText(text) }
/// }
///
/// var page = PageClient(tree: opened.root, sequence: opened.sequence)
/// page.send(.event(node: "blogs/blog.26.like"), on: socket)
/// let change = page.receive(try PageProtocol.ServerMessage(jsonText: received), replyingOn: socket)
/// ```
public protocol PageTransport: Sendable {
    /// Writes one message, as the protocol's JSON text, after every message written before
    /// it. A transport whose socket is closed drops it (the page sends its unanswered actions
    /// again on the next one: ``PageClient/resendUnanswered(on:)``).
    func write(_ text: String)
}

extension PageClient {
    /// Sends `message` on `transport`: an event under a new action key, kept until the server
    /// finishes with it; any other message as it is.
    ///
    /// - Returns: the message sent (an event with its key), or `nil` when ``largestPending``
    ///   actions already wait (nothing was sent).
    @discardableResult
    public mutating func send(_ message: PageProtocol.ClientMessage, on transport: some PageTransport) -> PageProtocol.ClientMessage? {
        guard let message = send(message) else { return nil }
        Self.write(message, on: transport)
        return message
    }

    /// Answers the waiting question on `transport` (the answer is kept for the action it
    /// holds up); nothing is sent when no question waits.
    public mutating func answer(_ accept: Bool, on transport: some PageTransport) {
        if let message = answer(accept) { Self.write(message, on: transport) }
    }

    /// Takes in a server message and writes on `transport` the reply it calls for (a resync
    /// when an update is missing, an answer the person gave before): what it changed in the
    /// tree. ``receive(_:)`` tells more (the actions the server finished with).
    public mutating func receive(_ message: PageProtocol.ServerMessage, replyingOn transport: some PageTransport) -> Reception {
        let reception = receive(message)
        if let reply = reception.reply { Self.write(reply, on: transport) }
        return reception
    }

    /// Writes every event not yet answered on `transport`, a new socket to the page (opened
    /// from `mirror.sequence` with ``resumeToken``), each under its own key: the server does
    /// those it had not done and answers the others without doing them again.
    public func resendUnanswered(on transport: some PageTransport) {
        for message in unanswered { Self.write(message, on: transport) }
    }

    /// A client message's text. Only a non-finite number (a visibility fraction) has none;
    /// such a message is not sent.
    private static func write(_ message: PageProtocol.ClientMessage, on transport: some PageTransport) {
        if let text = try? message.jsonText() { transport.write(text) }
    }
}
