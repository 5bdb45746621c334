import Foundation
import ProfileDemoStore
import Scenery
import SceneryLive
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// The inspector's live page (`/scenes/scenery-stats`, with `--inspect`): a scene of its own,
/// kept true by the page protocol, showing aggregates only.
@Suite(.timeLimit(.minutes(5))) struct InspectorStatsPageTests {
    let store: SQLiteProfileStore

    init() throws { store = try SQLiteProfileStore.inMemory(seedDemoData: true) }

    func server(inspecting: Bool) throws -> SceneryServer {
        try ResumeTests.server(of: store, ledger: store) { $0.enablesInspector = inspecting }
    }

    @Test(arguments: PageTestTransport.allCases)
    func aLikeOnAnotherPageReachesTheLivePageAsItsTimes(transport: PageTestTransport) async throws {
        let server = try server(inspecting: true)
        try await server.test(transport) { client in
            let stats = try await client.open("scenery-stats")
            #expect(stats.state.text(of: "stats/first-patch") == "Event → first patch: none yet", "\(stats.state.tree)")
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
            _ = try await bob.waitForAnswer(to: try await bob.tap("blogs/blog.26.like"))
            // The page renders again once the figures moved: the like's times, the profile's
            // loads by module type, two pages open.
            let shown = try await stats.waitUntil("the like's times") {
                $0.text(of: "stats/first-patch")?.hasSuffix("(of the newest 1 event)") == true
            }
            let firstPatch = try #require(shown.text(of: "stats/first-patch"))
            #expect(firstPatch.firstMatch(of: /^Event → first patch: p50 \d+ µs · p99 \d+ µs \(of the newest 1 event\)$/) != nil, "\(firstPatch)")
            #expect(shown.text(of: "stats/events")?.hasPrefix("Events, start to end: p50 ") == true)
            #expect(shown.text(of: "stats/pages") == "Open pages: 2")
            #expect(shown.text(of: "stats/load.BlogModule")?.firstMatch(of: /^BlogModule: p99 \d+ µs \(\d+ loads?\)$/) != nil, "\(shown.tree)")
            // Aggregates only: nothing of Bob's page (his id, the blog, its title) is on it.
            let words = shown.tree.allTexts.joined(separator: "\n")
            #expect(!words.contains("Bob") && !words.contains("blog.26") && !words.contains("user=1"), "\(words)")
        }
    }

    @Test func aFanOutReportedToTheServerIsShown() async throws {
        let server = try server(inspecting: true)
        try await server.test(.live) { client in
            let stats = try await client.open("scenery-stats")
            server.record(FanOut(changes: 1, deliveries: 40, duration: .microseconds(900), isInWaves: false))
            let shown = try await stats.waitUntil("the fan-out") { $0.text(of: "stats/fan-outs")?.contains("subscribers") == true }
            #expect(shown.text(of: "stats/fan-outs") == "Fan-outs: p50 900 µs · p99 900 µs (of the newest 1 fan-out); the last reached 40 subscribers")
        }
    }

    @Test func aServerWithoutTheInspectorHasNoLivePage() async throws {
        let server = try server(inspecting: false)
        #expect(!server.registry.sceneIDs.contains("scenery-stats"))
        let refused = try await server.test(.live) { client in
            await #expect(throws: PageTestError.self) { _ = try await client.open("scenery-stats") }
        }
        #expect(refused.map { "\($0)" }?.contains("scenery-stats") == true, "\(String(describing: refused))")
    }

    @Test func anAppsOwnSceneOfThatNameKeepsItsPlace() throws {
        var registry = SceneRegistry()
        #expect(
            registry.addScene(id: "scenery-stats", source: #"{ "modules": [ { "id": "t", "type": "TextModule", "params": { "title": "Mine" } } ] }"#).isEmpty)
        var configuration = SceneryServer.Configuration(host: "127.0.0.1", port: 0, cookieSecret: Array(repeating: 7, count: 32))
        configuration.enablesInspector = true
        let server = SceneryServer(registry: registry, users: [], configuration: configuration)
        #expect(server.registry.source(of: "scenery-stats")?.contains("Mine") == true)
    }

    @Test func percentilesAreTheNearestRankOfTheNewestSamples() {
        var samples = LatencySamples(capacity: 4)
        #expect(samples.percentile(0.5) == nil)
        for microseconds in [40, 10, 30, 20] { samples.add(.microseconds(microseconds)) }
        #expect(samples.percentile(0.5) == .microseconds(20))
        #expect(samples.percentile(0.99) == .microseconds(40))
        #expect(samples.percentile(0) == .microseconds(10))
        samples.add(.microseconds(1))  // the oldest (40) goes
        #expect(samples.count == 4 && samples.total == 5)
        #expect(samples.percentile(0.99) == .microseconds(30))
        #expect(samples.percentile(0.25) == .microseconds(1))
    }
}

extension ViewNode {
    /// Every text and button title in the tree, depth first.
    fileprivate var allTexts: [String] {
        var texts: [String] = []
        switch kind {
        case .text(let text, _): texts.append(text)
        case .button(let title, _, _): texts.append(title)
        default: break
        }
        return texts + children.flatMap(\.allTexts)
    }
}
