import Prometheus
import SceneryServer

/// `serve --metrics`: the server's series in a Prometheus registry of their own, served at
/// `/metrics` in Prometheus's text format.
enum PrometheusTelemetry {
    /// Telemetry to a new registry, with buckets for what Scenery times: an event runs in
    /// microseconds to milliseconds (Prometheus's default buckets start at 5 ms).
    static func make() -> SceneryServer.Telemetry {
        let registry = PrometheusCollectorRegistry()
        var factory = PrometheusMetricsFactory(registry: registry)
        factory.durationHistogramBuckets["scenery_event_duration_seconds"] = [
            .microseconds(100), .microseconds(250), .microseconds(500), .milliseconds(1), .milliseconds(2.5), .milliseconds(5),
            .milliseconds(10), .milliseconds(25), .milliseconds(50), .milliseconds(100), .milliseconds(250), .seconds(1),
        ]
        return SceneryServer.Telemetry(metrics: factory, metricsPage: { registry.emitToString() })
    }
}
