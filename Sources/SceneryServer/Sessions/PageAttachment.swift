/// The page's socket, while it has one: which connection is the page's now, since when the
/// page has had none, and how many of its messages were refused in a row.
///
/// A page's session outlives its socket by a grace period, and a page that never attaches
/// one is let go after the attach timeout:
///
/// ```swift
/// var attachment = PageAttachment(opened: .now)
/// let connection = attachment.attach(socket)   // 1; a later socket is 2
/// attachment.detach(connection, now: .now)      // the page has a grace period from now
/// attachment.isExpired(now: later, grace: .seconds(30), attachTimeout: .seconds(10))
/// ```
struct PageAttachment {
    /// The attached socket, if any.
    private(set) var socket: (any PageSocket)?
    /// The number of the newest socket attached (each attach counts one more).
    private var connection = 0
    /// When the page last lost its socket; `nil` while one is attached or none ever was.
    private var detachedSince: ContinuousClock.Instant?
    /// When the session was made, for a page that never attaches.
    private let opened: ContinuousClock.Instant
    private var refusedInARow = 0

    /// A page opened at `opened`, with no socket yet.
    init(opened: ContinuousClock.Instant) {
        self.opened = opened
    }

    /// Whether a page that keeps sending what is refused should be disconnected: more
    /// than ``mostRefusedInARow`` refused with nothing accepted between.
    var isAbusive: Bool { refusedInARow > Self.mostRefusedInARow }

    /// How many messages in a row may be refused before the socket is closed.
    static let mostRefusedInARow = 100

    /// Attaches `socket` in place of the one before (which the caller let go of); returns
    /// its connection number.
    mutating func attach(_ socket: any PageSocket) -> Int {
        connection += 1
        self.socket = socket
        detachedSince = nil
        refusedInARow = 0
        return connection
    }

    /// Whether `connection` is the page's socket now.
    func isCurrent(_ connection: Int) -> Bool {
        connection == self.connection && socket != nil
    }

    /// Socket `connection` closed at `now`; returns whether it was the page's (a newer one
    /// that took over is kept).
    mutating func detach(_ connection: Int, now: ContinuousClock.Instant) -> Bool {
        guard isCurrent(connection) else { return false }
        socket = nil
        detachedSince = now
        return true
    }

    /// Forgets the attached socket, returning it for the caller to close; the grace period
    /// starts at `now` when given (the server let the socket go; the page reconnects).
    mutating func letGo(detachedAt now: ContinuousClock.Instant? = nil) -> (any PageSocket)? {
        defer {
            socket = nil
            if let now { detachedSince = now }
        }
        return socket
    }

    /// Whether the page has outlived its socket's grace period, or never attached one
    /// within `attachTimeout` of being opened.
    func isExpired(now: ContinuousClock.Instant, grace: Duration, attachTimeout: Duration) -> Bool {
        if socket != nil { return false }
        if let detachedSince { return now - detachedSince > grace }
        return now - opened > attachTimeout
    }

    /// One more message refused.
    mutating func refused() {
        refusedInARow += 1
    }

    /// A message accepted: the refusals in a row start again.
    mutating func accepted() {
        refusedInARow = 0
    }
}
