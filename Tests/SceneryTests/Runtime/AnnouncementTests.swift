import SceneryTesting
import Synchronization
import Testing

@testable import Scenery

/// A count that others change (``hear(_:)``) or the viewer changes (`news.add`), saying what
/// each change means.
actor NewsModule: Module {
    static let descriptor = ModuleDescriptor(type: "NewsModule", summary: "A count of news.", events: ["news.add"], defaultActions: ["news.add"])
    static let made = Locked<[NewsModule]>([])

    let context: ModuleContext
    var count = 0

    init(context: ModuleContext) {
        self.context = context
        Self.made.withLock { $0.append(self) }
    }

    func load(_ request: LoadRequest) async throws {}

    /// Someone else's change reached the module (a live subscription would call this).
    func hear(_ count: Int) async {
        let added = count - self.count
        self.count = count
        await context.setNeedsRender(announcing: "\(added) new")
    }

    func handle(_ event: Event) async -> EventDisposition {
        guard event.name == "news.add" else { return .pass }
        await hear(count + 1)
        return .handled
    }

    func render() -> ViewNode {
        .stack("news", [.text("count", "News: \(count)"), .button("add", title: "Add", sends: EventDescriptor("news.add"))])
    }
}

/// What a module says a change means reaches the host with the update that shows it:
/// other people's changes only, and only when something visible changed.
@Suite(.timeLimit(.minutes(5)), .serialized) struct AnnouncementTests {
    func scene(host: RecordingHost) async throws -> (SceneInstance, NewsModule) {
        var registry = SceneRegistry()
        registry.register(NewsModule.self) { _, context in NewsModule(context: context) }
        let problems = registry.addScene(id: "news", source: #"{"modules": [{"id": "news", "type": "NewsModule"}]}"#)
        #expect(problems.isEmpty, "\(problems)")
        NewsModule.made.withLock { $0 = [] }
        let scene = try await registry.assemble("news", for: SceneContext(viewer: "1"), host: host)
        _ = await scene.takeBaseline()
        let module = try #require(NewsModule.made.withLock { $0.last })
        return (scene, module)
    }

    @Test func anotherPersonsChangeReachesTheHostWithWhatItMeans() async throws {
        let host = RecordingHost()
        let (scene, module) = try await scene(host: host)
        await module.hear(3)
        #expect(NewsModule.made.withLock { $0.count } == 1)
        #expect(await scene.render().visibleTexts.contains("News: 3"))
        #expect(host.updates.map(\.announcements) == [["3 new"]])
    }

    @Test func aChangeMadeByThePagesOwnPersonIsShownButNotAnnounced() async throws {
        let host = RecordingHost()
        let (scene, module) = try await scene(host: host)
        await scene.send(Event("news.add", from: "news/add"))
        // The same, arriving as a live change made under this page's origin (its own write).
        await WriteContext.current.onPage(scene.origin).run { await module.hear(5) }
        #expect(host.updates.count == 2, "both changes are shown")
        #expect(host.updates.map(\.announcements) == [[], []])
        // Another page's origin is someone else's doing.
        await WriteContext.current.onPage(ChangeSource()).run { await module.hear(6) }
        #expect(host.updates.last?.announcements == ["1 new"])
    }

    @Test func aChangeThatShowsNothingNewIsNotAnnouncedThenOrLater() async throws {
        let host = RecordingHost()
        let (scene, module) = try await scene(host: host)
        await module.hear(0)  // nothing visible changed: no update, nothing said
        #expect(host.updates.isEmpty)
        await scene.send(Event("news.add", from: "news/add"))
        #expect(host.updates.map(\.announcements) == [[]], "the earlier announcement is not carried to a later update")
    }
}
