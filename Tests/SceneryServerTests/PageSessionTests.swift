import Logging
import Scenery
import SceneryTesting
import Testing

@testable import SceneryServer

@Suite struct PageSessionTests {
    func session(maxQueued: Int) -> PageSession {
        var configuration = SceneryServer.Configuration(port: 0, cookieSecret: Array(repeating: 1, count: 32))
        configuration.maxQueuedMessages = maxQueued
        return PageSession(
            id: "s", viewer: nil, sceneID: "x", arguments: [:], renderer: HTMLRenderer(), configuration: configuration,
            logger: Logger(label: "test"))
    }

    @Test func aPageThatDoesNotReadIsDisconnectedNotBuffered() async {
        let page = session(maxQueued: 16)
        let (messages, _) = await page.attach(since: 0)
        // Nobody reads `messages`; every refusal is a message to the page.
        for _ in 0..<16 { await page.receive("not json") }
        #expect(await page.isAttached, "up to the limit, messages wait")
        await page.receive("not json")
        #expect(await !page.isAttached, "past it, the socket is let go (the page reconnects and catches up)")
        var queued = 0
        for await _ in messages { queued += 1 }
        #expect(queued == 16, "what was queued stays bounded")
    }

    @Test func aReconnectGetsTheNumberedMessagesItMissed() async throws {
        let page = session(maxQueued: 256)
        var registry = SceneRegistry()
        registry.addScene(id: "x", source: #"{ "modules": [ { "id": "t", "type": "TextModule", "params": { "title": "Hi" } } ] }"#)
        let scene = try await registry.assemble("x", for: SceneContext(viewer: nil), host: page.host)
        await page.install(scene, baseline: await scene.takeBaseline())
        _ = await page.attach(since: 0)
        for _ in 0..<3 { await page.receive(#"{"type":"resync"}"#) }  // three numbered messages
        let (messages, _) = await page.attach(since: 1)
        var replayed: [String] = []
        for await text in messages {
            replayed.append(text)
            if replayed.count == 2 { break }
        }
        #expect(replayed.allSatisfy { $0.contains(#""type":"reset""#) })
        #expect(replayed.map { $0.contains(#""sequence":2"#) || $0.contains(#""sequence":3"#) } == [true, true])
    }

    @Test func visibilityReportsCountOncePerNodeAndOnlyForWhatThePageShows() async throws {
        let page = session(maxQueued: 4096)
        let journal = ImpressionJournal()
        var registry = SceneRegistry()
        registry.impressionSink = journal
        registry.impressionRule = ImpressionRule(minimumDuration: .zero)
        registry.addScene(id: "x", source: #"{ "modules": [ { "id": "t", "type": "TextModule", "params": { "title": "Hi" } } ] }"#)
        let scene = try await registry.assemble("x", for: SceneContext(viewer: nil), host: page.host)
        await page.install(scene, baseline: await scene.takeBaseline())
        let (messages, _) = await page.attach(since: 0)
        // A forged page floods reports: of its one module, and of nodes it does not show.
        for _ in 0..<50 { await page.receive(#"{"type":"visibility","node":"t","fraction":1}"#) }
        await page.receive(#"{"type":"visibility","node":"elsewhere","fraction":1}"#)
        await page.receive(#"{"type":"visibility","node":"t/title","fraction":1}"#)
        #expect(journal.records(.impression).map(\.module) == ["t"])
        var refusals: [String] = []
        for await text in messages {
            refusals.append(text)
            if refusals.count == 2 { break }
        }
        #expect(refusals.allSatisfy { $0 == #"{"message":"That is not on this page; nothing was counted.","type":"refused"}"# }, "\(refusals)")
    }
}
