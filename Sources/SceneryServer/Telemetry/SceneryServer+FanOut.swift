import CoreMetrics
import SceneryLive
import Tracing

extension SceneryServer {
    /// Records one fan-out of a change feed (its changes handed over to the modules of open
    /// pages) in the server's telemetry: `scenery_fanouts_total`, `scenery_fanout_deliveries`
    /// (how many subscriptions it reached), `scenery_fanout_duration_seconds`, and a span
    /// `scenery.fanout` with the same figures: the child of `ServiceContext.current` when the
    /// feed reports in a traced task, else a trace of its own (the bundled SQLite and
    /// PostgreSQL stores publish on their connection's thread, where no context is bound).
    /// With the inspector on, the live page (`/scenes/scenery-stats`) shows them too.
    ///
    /// Give it to the feed of the store the server's modules read:
    ///
    /// ```swift
    /// let server = SceneryServer(registry: registry, users: users, configuration: configuration)
    /// store.observeFanOuts(server.record)
    /// ```
    public func record(_ fanOut: FanOut) {
        inspectorStats?.record(fanOut)
        metrics.fanOuts.increment()
        metrics.fanOutDeliveries.record(fanOut.deliveries)
        metrics.fanOutDuration.record(fanOut.duration)
        // The span ends now and started `duration` ago.
        let end = DefaultTracerClock.now
        let (seconds, attoseconds) = fanOut.duration.components
        let nanoseconds = UInt64(clamping: seconds) &* 1_000_000_000 &+ UInt64(clamping: attoseconds / 1_000_000_000)
        let start = DefaultTracerClock.Timestamp(nanosecondsSinceEpoch: end.nanosecondsSinceEpoch &- min(nanoseconds, end.nanosecondsSinceEpoch))
        let span = tracer.startSpan("scenery.fanout", context: ServiceContext.current ?? .topLevel, ofKind: .internal, at: start)
        span.attributes["scenery.fanout.changes"] = fanOut.changes
        span.attributes["scenery.fanout.deliveries"] = fanOut.deliveries
        span.attributes["scenery.fanout.waves"] = fanOut.isInWaves
        span.end(at: end)
    }
}
