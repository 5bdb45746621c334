import Foundation

/// The open pages, by session id; ends those whose socket is gone for too long.
actor SessionStore {
    private var sessions: [String: PageSession] = [:]

    func add(_ session: PageSession) {
        sessions[session.id] = session
    }

    func session(_ id: String) -> PageSession? {
        sessions[id]
    }

    var all: [PageSession] { Array(sessions.values) }

    var count: Int { sessions.count }

    /// How many open pages belong to `viewer` (none when signed out) and to `address`.
    func openPages(viewer: String?, address: String) -> (byViewer: Int, byAddress: Int) {
        var byViewer = 0
        var byAddress = 0
        for session in sessions.values {
            if let viewer, session.viewer == viewer { byViewer += 1 }
            if session.address == address { byAddress += 1 }
        }
        return (byViewer, byAddress)
    }

    /// Ends and forgets expired sessions; returns how many.
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) async -> Int {
        var ended = 0
        for (id, session) in sessions where await session.isExpired(now: now) {
            await session.end()
            sessions[id] = nil
            ended += 1
        }
        return ended
    }

    /// Ends every session (the server stops).
    func endAll() async {
        for session in sessions.values { await session.end() }
        sessions = [:]
    }

    /// A new session id: 128 random bits as hex.
    static func newID() -> String {
        (0..<16).map { _ in String(format: "%02x", UInt8.random(in: .min ... .max)) }.joined()
    }
}
