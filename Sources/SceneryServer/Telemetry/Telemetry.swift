import CoreMetrics

extension SceneryServer {
    /// Where a server's metrics go, and whether it serves them to a scraper on this machine.
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

        /// Telemetry to `metrics` (the bootstrapped backend when `nil`), served at `/metrics`
        /// as `metricsPage` says when it is given.
        public init(metrics: (any MetricsFactory)? = nil, metricsPage: (@Sendable () -> String)? = nil) {
            self.metrics = metrics
            self.metricsPage = metricsPage
        }
    }
}
