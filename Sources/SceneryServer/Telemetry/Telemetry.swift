import CoreMetrics
import Tracing

extension SceneryServer {
    /// Where a server's metrics and spans go, and whether it serves its metrics to a scraper
    /// on this machine.
    ///
    /// The server emits its series through swift-metrics, the metrics API of Swift servers:
    /// by default to whatever backend the application bootstrapped (`MetricsSystem`), so an
    /// app that already exports metrics gets Scenery's beside its own. Every series is
    /// named `scenery_…` and labelled with nothing more personal than a scene id (see
    /// <doc:Deploying#Metrics> for the list). With ``metricsPage`` the server also answers
    /// `GET /metrics` with that text, to requests from this machine only (a loopback
    /// address, through a trusted proxy too): the way `scenery serve --metrics` exposes a
    /// Prometheus registry.
    ///
    /// Spans go through swift-distributed-tracing, to the tracer the application bootstrapped
    /// (`InstrumentationSystem`) or to ``tracer``: `scenery.page` for a page's first
    /// response, a child of the trace the request carried (its `traceparent`, as the
    /// tracer reads it), and `scenery.event` for each control a page activates, linked to
    /// its page's span and bound as `ServiceContext.current` while the event runs (so the
    /// spans a traced store call starts are its children); a refused event's span is an error.
    ///
    /// ```swift
    /// import Prometheus
    ///
    /// let prometheus = PrometheusCollectorRegistry()
    /// var configuration = SceneryServer.Configuration(port: 8080)
    /// configuration.telemetry = .init(
    ///     metrics: PrometheusMetricsFactory(registry: prometheus),
    ///     metricsPage: { prometheus.emitToString() })
    /// ```
    public struct Telemetry: Sendable {
        /// The backend the server's series are made in; `nil` takes `MetricsSystem.factory`
        /// when the server is made (a no-op until the application bootstraps one).
        public var metrics: (any MetricsFactory)?
        /// The text `GET /metrics` answers with (Prometheus's text format, say), or `nil` for
        /// no such address.
        public var metricsPage: (@Sendable () -> String)?
        /// The tracer the server's spans start in; `nil` takes `InstrumentationSystem.tracer`
        /// when the server is made (a no-op until the application bootstraps one).
        public var tracer: (any Tracer)?

        /// Telemetry to `metrics` and `tracer` (the bootstrapped ones when `nil`), with the
        /// metrics served at `/metrics` as `metricsPage` says when it is given.
        public init(metrics: (any MetricsFactory)? = nil, metricsPage: (@Sendable () -> String)? = nil, tracer: (any Tracer)? = nil) {
            self.metrics = metrics
            self.metricsPage = metricsPage
            self.tracer = tracer
        }
    }
}
