import Foundation
import HTTPTypes
import Hummingbird
import InMemoryTracing
import Prometheus
import Scenery
import SceneryServer
import SceneryServerTesting
import Testing
import Tracing

/// The server's metrics: series named `scenery_…` in the telemetry's backend, served at
/// `/metrics` to this machine only, labelled with scene ids and nothing of a person.
@Suite(.timeLimit(.minutes(5))) struct TelemetryTests {
    let fixture: ServerFixture
    let prometheus = PrometheusCollectorRegistry()

    init() throws {
        let prometheus = prometheus
        fixture = try ServerFixture { configuration in
            configuration.telemetry = .init(metrics: PrometheusMetricsFactory(registry: prometheus), metricsPage: { prometheus.emitToString() })
        }
    }

    /// The value of the series `name` (with its labels, as Prometheus writes them), if any.
    func value(of name: String) -> Double? {
        prometheus.emitToString().split(separator: "\n")
            .first { $0.hasPrefix("\(name) ") }
            .flatMap { Double($0.split(separator: " ").last ?? "") }
    }

    @Test(arguments: PageTestTransport.allCases)
    func openPagesAndALikeAreCountedAsTheyHappen(transport: PageTestTransport) async throws {
        try await fixture.server.test(transport) { client in
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
            _ = try await client.open("user-profile", arguments: ["user": "1"], as: "7")
            #expect(value(of: "scenery_pages_open") == 2)
            #expect(value(of: #"scenery_pages_opened_total{scene="user-profile"}"#) == 2)
            #expect(value(of: "scenery_sockets_open") == 2)
            #expect(value(of: #"scenery_module_loads_total{module_type="BlogModule",outcome="finished"}"#) == 2)
            #expect(value(of: #"scenery_module_loads_total{module_type="BlogModule",outcome="timed-out"}"#) == 0)
            #expect(value(of: #"scenery_module_load_duration_seconds_count{module_type="UserInfoModule"}"#) == 2)
            let rendersBefore = try #require(value(of: #"scenery_module_render_duration_seconds_count{module_type="BlogModule"}"#))
            let sentBefore = try #require(value(of: "scenery_messages_sent_total"))
            let bytesBefore = try #require(value(of: "scenery_message_bytes_sent_total"))

            _ = try await bob.waitForAnswer(to: try await bob.tap("blogs/blog.26.like"))
            #expect(value(of: #"scenery_events_total{scene="user-profile"}"#) == 1)
            #expect(value(of: #"scenery_event_duration_seconds_count{scene="user-profile"}"#) == 1)
            #expect(try #require(value(of: #"scenery_module_render_duration_seconds_count{module_type="BlogModule"}"#)) > rendersBefore)
            #expect(try #require(value(of: "scenery_messages_sent_total")) > sentBefore, "the like's patch was written")
            #expect(try #require(value(of: "scenery_message_bytes_sent_total")) > bytesBefore)

            await bob.send(.event(node: "sections#drafts", action: .random()))
            _ = try await bob.waitUntil("a refusal") { !$0.refusals.isEmpty }
            #expect(value(of: "scenery_messages_refused_total") == 1)
            #expect(value(of: #"scenery_events_total{scene="user-profile"}"#) == 1, "a refused event did not run")
        }
    }

    @Test func aPageThatIsNoSceneAddsNoSeries() async throws {
        try await fixture.server.application().test(.live) { client in
            let missing = try await client.execute(uri: "/scenes/no-such-scene-\(UUID().uuidString)", method: .get)
            #expect(missing.status == .notFound)
            let page = try await client.execute(uri: "/metrics", method: .get)
            #expect(page.status == .ok)
            #expect(page.text.contains("scenery_pages_open"))
            #expect(!page.text.contains("no-such-scene"), "an address cannot make a series")
        }
    }

    /// Every label the server writes is a scene id, a registered module type, a load's
    /// outcome or a histogram's bucket: no viewer, no address, no session, nothing a page
    /// shows, after the owner's page with its drafts and another viewer's.
    @Test func theMetricsNameNoPersonAndNothingAPageShows() async throws {
        try await fixture.server.test(.live) { client in
            let alice = try await client.open("user-profile", arguments: ["user": "1"], as: "1")
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
            _ = try await bob.waitForAnswer(to: try await bob.tap("blogs/blog.26.like"))
            let text = prometheus.emitToString()
            let labelSets = text.split(separator: "\n").filter { !$0.hasPrefix("#") }.compactMap { line -> Substring? in
                guard let open = line.firstIndex(of: "{"), let close = line.firstIndex(of: "}") else { return nil }
                return line[line.index(after: open)..<close]
            }
            #expect(!labelSets.isEmpty)
            let allowed: [String: Set<String>] = [
                "scene": Set(fixture.server.registry.sceneIDs), "module_type": Set(fixture.server.registry.moduleDescriptors.map(\.type)),
                "outcome": Set(SceneRegistry.LoadOutcome.allCases.map(\.rawValue)),
            ]
            for labels in labelSets {
                for pair in labels.split(separator: ",") {
                    let parts = pair.split(separator: "=", maxSplits: 1)
                    let (name, value) = (String(parts[0]), String(parts[1].dropFirst().dropLast()))
                    #expect(allowed[name]?.contains(value) == true || name == "le", "label \(pair)")
                }
            }
            for shown in alice.tree.visibleTexts + bob.tree.visibleTexts where shown.count > 3 {
                #expect(!text.contains(shown), "the metrics show nothing of the page: \(shown.quoted)")
            }
            #expect(text.split(separator: "\n").allSatisfy { $0.hasPrefix("#") || $0.hasPrefix("scenery_") }, "\(text)")
        }
    }

    @Test func theMetricsAnswerThisMachineOnly() async throws {
        let proxied = try ServerFixture { configuration in
            configuration.trustedProxies = ["127.0.0.1", "::1"]
            configuration.telemetry = .init(metricsPage: { "scenery_pages_open 0\n" })
        }
        let forwarded = try #require(HTTPField.Name("X-Forwarded-For"))
        try await proxied.server.application().test(.live) { client in
            let local = try await client.execute(uri: "/metrics", method: .get, headers: [forwarded: "203.0.113.9, 127.0.0.1"])
            #expect(local.status == .ok)
            #expect(local.text == "scenery_pages_open 0\n")
            #expect(local.headers[.contentType] == "text/plain; version=0.0.4; charset=utf-8")
            for from in ["203.0.113.9", "127.0.0.1, 203.0.113.9", nil] as [String?] {
                let remote = try await client.execute(uri: "/metrics", method: .get, headers: from.map { [forwarded: $0] } ?? [:])
                #expect(remote.status == .forbidden, "forwarded for \(from ?? "nobody")")
                #expect(!remote.text.contains("scenery_"))
            }
        }
    }

    /// A page's first response is a span in the trace its request carried; each event a
    /// span of its own, linked to its page's, marked an error when it is refused.
    @Test func aPageAndItsEventsAreSpansInTheTraceTheRequestCarried() async throws {
        let tracer = InMemoryTracer()
        let traced = try ServerFixture { $0.telemetry = .init(tracer: tracer) }
        try await traced.server.application().test(.live) { client in
            let carried: HTTPFields = [
                try #require(HTTPField.Name(InMemoryTracer.traceIDKey)): "trace-from-the-proxy",
                try #require(HTTPField.Name(InMemoryTracer.spanIDKey)): "span-of-the-proxy",
            ]
            let page = try await client.execute(uri: "/scenes/user-profile?user=1", method: .get, headers: carried)
            #expect(page.status == .ok)
        }
        let page = try #require(tracer.finishedSpans.first { $0.operationName == "scenery.page" })
        #expect(page.traceID == "trace-from-the-proxy")
        #expect(page.parentSpanID == "span-of-the-proxy")
        #expect(page.attributes["scenery.scene"]?.toSpanAttribute() == "user-profile")
        #expect(page.attributes["http.response.status_code"]?.toSpanAttribute() == 200)

        try await traced.server.test(.inProcess) { client in
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
            _ = try await bob.waitForAnswer(to: try await bob.tap("blogs/blog.26.like"))
            await bob.send(.event(node: "nowhere", action: .random()))
            _ = try await bob.waitUntil("a refusal") { !$0.refusals.isEmpty }
        }
        let opened = try #require(tracer.finishedSpans.last { $0.operationName == "scenery.page" })
        let events = tracer.finishedSpans.filter { $0.operationName == "scenery.event" }
        #expect(events.count == 2)
        for event in events {
            #expect(event.parentSpanID == nil, "an event is a trace of its own")
            #expect(event.links.compactMap(\.context.inMemorySpanContext) == [opened.spanContext], "linked to its page's span")
            #expect(event.attributes["scenery.scene"]?.toSpanAttribute() == "user-profile")
        }
        #expect(events.first?.status == nil, "the like ran")
        #expect(events.last?.status?.code == .error, "the control that is not on the page was refused")
    }

    /// A like another viewer's page shows is handed over to it: a fan-out in the series, and
    /// a span of its own with what it reached.
    @Test func aChangeHandedOverToOtherPagesIsAFanOutInTheSeriesAndUnderItsEventsSpan() async throws {
        let tracer = InMemoryTracer()
        let prometheus = PrometheusCollectorRegistry()
        let traced = try ServerFixture {
            $0.telemetry = .init(metrics: PrometheusMetricsFactory(registry: prometheus), tracer: tracer)
        }
        traced.store.observeFanOuts(traced.server.record)
        try await traced.server.test(.inProcess) { client in
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
            let carol = try await client.open("user-profile", arguments: ["user": "1"], as: "7")
            _ = try await bob.waitForAnswer(to: try await bob.tap("blogs/blog.26.like"))
            _ = try await carol.waitUntil("Bob's like") { $0.text(of: "blogs/blog.26.likes") == "Likes: 1" }
        }
        let emitted = prometheus.emitToString()
        #expect(emitted.contains("scenery_fanouts_total "), "\(emitted)")
        #expect(emitted.contains("scenery_fanout_deliveries"), "how many subscriptions each reached")
        #expect(emitted.contains("scenery_fanout_duration_seconds"))
        let fanOut = try #require(tracer.finishedSpans.first { $0.operationName == "scenery.fanout" })
        #expect(fanOut.attributes["scenery.fanout.deliveries"]?.toSpanAttribute() == 1, "Carol's page: Bob's own is skipped")
        #expect(fanOut.attributes["scenery.fanout.changes"]?.toSpanAttribute() == 1)
        #expect(fanOut.attributes["scenery.fanout.waves"]?.toSpanAttribute() == false)
    }

    @Test func aServerWhoseMetricsGoNowhereTimesNothing() throws {
        #expect(try ServerFixture().server.registry.activityObservers.isEmpty, "swift-metrics' no-op backend: no observer")
        #expect(fixture.server.registry.activityObservers.count == 1, "Prometheus: the server's metrics observe its scenes")
    }

    @Test func withoutAMetricsPageThereIsNoSuchAddress() async throws {
        let plain = try ServerFixture()
        try await plain.server.application().test(.router) { client in
            let page = try await client.execute(uri: "/metrics", method: .get)
            #expect(page.status == .notFound)
        }
    }
}
