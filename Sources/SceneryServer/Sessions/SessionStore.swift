import Foundation
import Scenery

/// The open pages, by session id; ends those whose socket is gone for too long.
actor SessionStore {
    private var sessions: [String: PageSession] = [:]
    /// Places held for pages being made (their scene starts across awaits): counted
    /// against the limits with the open pages, so pages asked for at once cannot all pass.
    private var reservations: [Int: (viewer: String?, address: String)] = [:]
    private var nextReservation = 0
    private let metrics: ServerMetrics

    init(metrics: ServerMetrics = .none) {
        self.metrics = metrics
    }

    /// A place held for one page being made, until it is added or released.
    struct Reservation: Sendable {
        fileprivate let number: Int
    }

    /// The limit a new page would pass: the most pages one viewer, or one address, may hold.
    struct LimitReached: Error, Equatable {
        let limit: Int
    }

    /// Holds a place for a new page of `viewer` (none when signed out) at `address`, if
    /// that stays within the limits, in one step with the check.
    func reserve(viewer: String?, address: String, maxPerViewer: Int, maxPerAddress: Int) -> Result<Reservation, LimitReached> {
        let (byViewer, byAddress) = openPages(viewer: viewer, address: address)
        if viewer != nil, byViewer >= maxPerViewer { return .failure(LimitReached(limit: maxPerViewer)) }
        if byAddress >= maxPerAddress { return .failure(LimitReached(limit: maxPerAddress)) }
        nextReservation += 1
        reservations[nextReservation] = (viewer, address)
        return .success(Reservation(number: nextReservation))
    }

    /// Gives a place back: the page it was held for was not made.
    func release(_ reservation: Reservation) {
        reservations[reservation.number] = nil
    }

    /// Adds a page in the place held for it.
    func add(_ session: PageSession, in reservation: Reservation) {
        reservations[reservation.number] = nil
        add(session)
    }

    func add(_ session: PageSession) {
        if sessions.updateValue(session, forKey: session.id) == nil { metrics.pagesOpen.increment() }
        metrics.scene(session.sceneID).pagesOpened.increment()
    }

    func session(_ id: String) -> PageSession? {
        sessions[id]
    }

    var all: [PageSession] { Array(sessions.values) }

    var count: Int { sessions.count }

    /// How many open pages (and places held for pages) belong to `viewer` (none when
    /// signed out) and to `address`.
    func openPages(viewer: String?, address: String) -> (byViewer: Int, byAddress: Int) {
        var byViewer = 0
        var byAddress = 0
        for page in sessions.values.map({ ($0.viewer, $0.opening.address) }) + reservations.values.map({ ($0.viewer, $0.address) }) {
            if let viewer, page.0 == viewer { byViewer += 1 }
            if page.1 == address { byAddress += 1 }
        }
        return (byViewer, byAddress)
    }

    /// Tidies every session (``PageSession/tidy(now:)``), then ends and forgets the expired
    /// ones; returns how many.
    @discardableResult
    func sweep(now: ContinuousClock.Instant = .now) async -> Int {
        var expired: [PageSession] = []
        for (id, session) in sessions where await session.tidy(now: now) {
            sessions[id] = nil
            expired.append(session)
        }
        metrics.pagesOpen.decrement(by: Double(expired.count))
        await Self.end(expired)
        return expired.count
    }

    /// The pages being made again from their tokens now: a second socket of one of them
    /// waits instead of making the page a second time.
    private var resuming: Set<String> = []

    /// Marks page `id` as being made again; `false` when it already is.
    func beginResuming(_ id: String) -> Bool {
        resuming.insert(id).inserted
    }

    func endResuming(_ id: String) {
        resuming.remove(id)
    }

    /// Whether the server is stopping (``endAll()`` ran): a page it made again now would end
    /// at once, its resume token spent for nothing.
    private(set) var isClosing = false

    /// Ends every session (the server stops).
    func endAll() async {
        isClosing = true
        let all = Array(sessions.values)
        sessions = [:]
        metrics.pagesOpen.decrement(by: Double(all.count))
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
