import Foundation
import Scenery

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
        var expired: [PageSession] = []
        for (id, session) in sessions where await session.isExpired(now: now) {
            sessions[id] = nil
            expired.append(session)
        }
        await Self.end(expired)
        return expired.count
    }

    /// Ends every session (the server stops).
    func endAll() async {
        let all = Array(sessions.values)
        sessions = [:]
        await Self.end(all)
    }

    /// Ends sessions concurrently: one slow to leave its scene holds no other back.
    private static func end(_ sessions: [PageSession]) async {
        await withTaskGroup(of: Void.self) { group in
            for session in sessions { group.addTask { await session.end() } }
        }
    }

    /// A new session id: 128 random bits as hex.
    static func newID() -> String {
        Hex.text((0..<16).map { _ in UInt8.random(in: .min ... .max) })
    }
}
