/// How often a page may do each kind of thing, each at a rate of its own: a page over one
/// rate is refused that kind of message, and only that kind.
///
/// ```swift
/// var rates = PageRates(configuration)
/// guard rates.allows(.resync) else { refuse("Too many requests for the whole page; wait a moment.") }
/// ```
struct PageRates {
    /// What a page does that is rationed.
    enum Kind {
        /// A control activated (``SceneryServer/Configuration/eventsPerSecond``,
        /// ``SceneryServer/Configuration/eventBurst``).
        case event
        /// A long list's window moved: they come in bursts as a list scrolls (the newest
        /// wins), and a scroll must not spend what a person's controls may do.
        case windowMove
        /// A request for the whole scene: it costs a whole render, so one a second.
        case resync
        /// A visibility report: they come in bursts as a list scrolls.
        case report
        /// A problem the page reports: a few, then one a minute (a page in a loop of errors
        /// costs the log a bounded number of lines).
        case problem
        /// A socket attached (``SceneryServer/Configuration/reconnectsPerSecond``,
        /// ``SceneryServer/Configuration/reconnectBurst``).
        case attach
    }

    private var events: TokenBucket
    private var resyncs = TokenBucket(rate: 1, capacity: 3)
    private var reports = TokenBucket(rate: 20, capacity: 120)
    private var windowMoves = TokenBucket(rate: 30, capacity: 60)
    private var problems = TokenBucket(rate: 1.0 / 60, capacity: 5)
    private var attaches: TokenBucket

    /// The rates `configuration` sets, each bucket full.
    init(_ configuration: SceneryServer.Configuration) {
        events = TokenBucket(rate: configuration.eventsPerSecond, capacity: configuration.eventBurst)
        attaches = TokenBucket(rate: configuration.reconnectsPerSecond, capacity: configuration.reconnectBurst)
    }

    /// Whether the page may do one more of `kind` at `now` (counting it if so).
    mutating func allows(_ kind: Kind, now: ContinuousClock.Instant = .now) -> Bool {
        switch kind {
        case .event: events.take(now: now)
        case .resync: resyncs.take(now: now)
        case .report: reports.take(now: now)
        case .windowMove: windowMoves.take(now: now)
        case .problem: problems.take(now: now)
        case .attach: attaches.take(now: now)
        }
    }
}
