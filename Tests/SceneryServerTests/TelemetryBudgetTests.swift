import InMemoryTracing
import MetricsTestKit
import Scenery
import SceneryServerTesting
import Testing

/// What telemetry costs a change on every page that shows it: the per-page part of a
/// fan-out may take a few metric operations (the page's render time; the count and bytes of
/// each message it is written: the patch and, for another person's change, its
/// announcement) and no span, so that telemetry on stays within a small share of a page's cost
/// (BENCHMARKS.md §27 measures that share in CPU). Counted, not timed: a page more costs the
/// same operations on any machine.
@Suite(.timeLimit(.minutes(5))) struct TelemetryBudgetTests {
    /// The most metric operations (counter increments, recordings, timings) telemetry adds to
    /// a change for each open page that shows it.
    static let operationsPerPagePerChange = 5

    /// A like of Bob's on Alice's profile while `watchers` other people have it open: the
    /// metric operations and spans from the tap until every watcher shows it.
    func costOfALike(watchedBy watchers: Int) async throws -> (operations: Int, spans: Int) {
        let metrics = TestMetrics()
        let tracer = InMemoryTracer()
        let fixture = try ServerFixture { $0.telemetry = .init(metrics: metrics, tracer: tracer) }
        return try await fixture.server.test(.live) { client in
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
            var pages: [TestPage] = []
            // People 3 to 7 of the demo, a page or two each.
            for number in 0..<watchers {
                pages.append(try await client.open("user-profile", arguments: ["user": "1"], as: String(3 + number % 5)))
            }
            let (operations, spans) = (Self.operations(of: metrics), tracer.finishedSpans.count)
            _ = try await bob.waitForAnswer(to: try await bob.tap("blogs/blog.26.like"))
            for page in pages { _ = try await page.waitUntil("Bob's like") { $0.text(of: "blogs/blog.26.likes") == "Likes: 1" } }
            return (Self.operations(of: metrics) - operations, tracer.finishedSpans.count - spans)
        }
    }

    static func operations(of metrics: TestMetrics) -> Int {
        metrics.counters.reduce(0) { $0 + $1.values.count } + metrics.recorders.reduce(0) { $0 + $1.values.count }
            + metrics.timers.reduce(0) { $0 + $1.values.count } + metrics.meters.reduce(0) { $0 + $1.values.count }
    }

    @Test func eachPageThatShowsAChangeCostsTelemetryAFewOperationsAndNoSpan() async throws {
        let few = try await costOfALike(watchedBy: 2)
        let many = try await costOfALike(watchedBy: 6)
        let perPage = Double(many.operations - few.operations) / 4
        #expect(perPage > 0, "each page's message is counted (\(few) with 2 pages watching, \(many) with 6)")
        #expect(
            perPage <= Double(Self.operationsPerPagePerChange),
            "\(perPage) metric operations per page per change (\(few.operations) with 2 pages watching, \(many.operations) with 6)")
        #expect(many.spans == few.spans, "a span per event, none per page: \(few.spans) and \(many.spans)")
    }
}
