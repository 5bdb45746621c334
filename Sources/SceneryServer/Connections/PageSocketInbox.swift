import NIOCore
import NIOWebSocket
import Scenery

/// What a page socket received, on its way to the page session in order.
///
/// The socket's handler adds messages on the event loop; a task hands them to the session
/// one at a time, and exists only while messages wait. The task starts on the event loop
/// (`Task.immediate`), so a message crosses once, from the event loop onto the page, not
/// through Swift's pool on the way. When too many wait (a page that
/// sends faster than its session takes), the socket stops reading until the session caught
/// up, so what waits stays bounded.
final class PageSocketInbox: Sendable {
    private struct State {
        var channel: (any Channel)?
        /// The page's session once the socket attached, and its number for this socket.
        var session: PageSession?
        var connection: Int?
        var waiting: [String] = []
        var isDelivering = false
        var isReadingPaused = false
        var isClosed = false
    }

    private let state = Locked(State())  // the sanitizer sees this lock; see `Locked`
    /// Attaches the socket to its session (or closes it, saying why); the socket's
    /// connection number, or `nil` when it was closed.
    private let attach: @Sendable (any Channel) async -> (PageSession, Int)?

    /// The priority of what a person does on their page (and of the writes to it): above
    /// the refetches that carry other people's changes to every page (`utility`), so the
    /// answer to one's own action never waits behind them.
    static let priority = TaskPriority.userInitiated

    /// How many messages may wait before the socket stops reading, and how few before it reads again.
    static let pauseAbove = 64
    static let resumeBelow = 16

    init(attach: @escaping @Sendable (any Channel) async -> (PageSession, Int)?) {
        self.attach = attach
    }

    /// The socket is open: attach it to its session.
    func open(channel: any Channel) {
        state.withLock { $0.channel = channel }
        Task.immediate(priority: Self.priority) {
            guard let (session, connection) = await attach(channel) else { return }
            let wasClosed = state.withLock { state in
                (state.session, state.connection) = (session, connection)
                return state.isClosed
            }
            if wasClosed { await session.detach(connection) } else { deliverIfNeeded() }
        }
    }

    /// A message from the page.
    func received(_ text: String) {
        let pause = state.withLock { state -> (any Channel)? in
            state.waiting.append(text)
            guard state.waiting.count > Self.pauseAbove, !state.isReadingPaused else { return nil }
            state.isReadingPaused = true
            return state.channel
        }
        if let pause { pause.setOption(ChannelOptions.autoRead, value: false).whenComplete { _ in } }
        deliverIfNeeded()
    }

    /// The connection closed: the session keeps the page for a reconnect.
    func closed() {
        let attached = state.withLock { state -> (PageSession, Int)? in
            state.isClosed = true
            state.waiting = []
            state.channel = nil
            guard let session = state.session, let connection = state.connection else { return nil }
            return (session, connection)
        }
        if let (session, connection) = attached {
            Task.immediate { await session.detach(connection) }
        }
    }

    private func deliverIfNeeded() {
        let session = state.withLock { state -> PageSession? in
            guard let session = state.session, !state.isDelivering, !state.waiting.isEmpty, !state.isClosed else { return nil }
            state.isDelivering = true
            return session
        }
        guard let session else { return }
        // Started here, it hops from the event loop straight onto the page.
        Task.immediate(priority: Self.priority) { await self.deliver(to: session) }
    }

    /// Hands the waiting messages to `session` one at a time, on its page: the task crosses
    /// onto the page once, not twice per message.
    private func deliver(to session: isolated PageSession) async {
        while let (text, connection) = next() {
            // A socket the session let go of (a newer one took over), or that keeps
            // sending what is refused, is read no more.
            if let close = await session.take(text, from: connection) {
                closeChannel(code: close.code, reason: close.reason)
                break
            }
        }
    }

    /// The next message and the connection, or `nil` (and no task delivering) when none waits.
    private func next() -> (String, Int)? {
        let (message, resume) = state.withLock { state -> ((String, Int)?, (any Channel)?) in
            guard !state.waiting.isEmpty, !state.isClosed, let connection = state.connection else {
                state.isDelivering = false
                return (nil, nil)
            }
            let text = state.waiting.removeFirst()
            var resume: (any Channel)?
            if state.isReadingPaused, state.waiting.count < Self.resumeBelow {
                state.isReadingPaused = false
                resume = state.channel
            }
            return ((text, connection), resume)
        }
        if let resume { resume.setOption(ChannelOptions.autoRead, value: true).whenComplete { _ in } }
        return message
    }

    private func closeChannel(code: WebSocketErrorCode, reason: String? = nil) {
        guard let channel = state.withLock({ $0.channel }) else { return }
        PageSocketHandler.close(channel, code: code, reason: reason)
    }
}
