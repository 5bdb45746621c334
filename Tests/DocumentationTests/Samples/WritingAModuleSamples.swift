import ProfileDemoBlogs
// The samples of "Writing a module" (Sources/Scenery/Scenery.docc/WritingAModule.md), as
// code that compiles and runs: DocumentationSampleTests checks that the article's blocks
// stand here line for line.
import ProfileDemoDomain
import ProfileDemoStore
import Scenery
import SceneryTesting
import Testing

/// The demo's names.
struct DemoNames: NameService {
    func name(of user: String) async throws -> String { user == "1" ? "Alice" : "someone" }
}

/// A registry with the greeting, as the article registers it.
func registryWithTheGreeting(_ myNameService: any NameService) -> SceneRegistry {
    var registry = SceneRegistry()
    registry.register(GreetingModule.self) { parameters, context in
        try GreetingModule(parameters: parameters, context: context, names: myNameService)
    }
    return registry
}

/// An item of a long list, and the service that pages it.
struct Item: Identifiable, Sendable {
    var id: Int
    var title: String
}

struct ItemPage: Sendable {
    var items: [Item]
    var hasMore: Bool
    var total: Int?
}

protocol ItemService: Sendable {
    func items(offset: Int, limit: Int) async throws -> ItemPage
}

/// The windowed list of the article's step 8.
actor ItemListModule: Module {
    static let descriptor = ModuleDescriptor(type: "ItemListModule", summary: "A long list of items, loaded as it is scrolled.")

    private let service: any ItemService
    private var list = PagedList<Item>(pageSize: 20)

    init(service: any ItemService) {
        self.service = service
    }

    func load(_ request: LoadRequest) async throws {
        try await load(window: RowWindow(start: 0, count: 20))
    }

    func render() -> ViewNode {
        render(window: RowWindow(start: 0, count: 20))
    }

    func row(_ item: Item) -> ViewNode {
        .text("item.\(item.id)", item.title)
    }

    func load(window: RowWindow) async throws {
        guard let fetch = list.fetch(reaching: window) else { return }  // list: PagedList<Item>
        do {
            let page = try await service.items(offset: fetch.offset, limit: fetch.limit)
            list.finish(fetch, items: page.items, hasMore: page.hasMore, total: page.total)
        } catch {
            list.fail(fetch)
            throw error
        }
    }

    func render(window: RowWindow) -> ViewNode {
        .list("list", sections: [list.section(id: "all", window: window, row: row)])
    }
}

@Suite struct WritingAModuleSamples {
    @Test func theGreetingModuleGreetsAndWaves() async throws {
        let names = DemoNames()
        let harness = try ModuleHarness(GreetingModule.self, parameters: ["user": "1"], viewer: "2") {
            try GreetingModule(parameters: $0, context: $1, names: names)
        }
        try await harness.load { try RenderExpectation.shows("Hello, Alice!").verify($0) }
        try await harness.tap("wave") { try RenderExpectation.shows("Waved").verify($0) }
        try await harness.receiveEvent("greeting.wave")  // sent up to the scene
        try await harness.receiveUpdate { _ in }  // setNeedsRender() in perform(_:)
        try harness.finish()
    }

    @Test func theRegistryKnowsTheGreeting() {
        #expect(registryWithTheGreeting(DemoNames()).moduleDescriptors.map(\.type).contains("GreetingModule"))
    }

    @Test func aBlogModuleTestedWithoutTheHarness() async throws {
        let store = try SQLiteProfileStore(path: ":memory:")
        let blogs = try BlogModule(
            parameters: ModuleParameters(for: BlogModule.descriptor, ["author": "1"]),
            context: ModuleContext(id: "blogs", viewer: "2"), blogs: store)
        try await blogs.load(.initial)
        #expect(await blogs.render().visibleTexts.contains("Down the rabbit hole, part 3"))
    }
}
