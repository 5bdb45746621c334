// The module of "Wording and languages", as the article shows it.
import Scenery
import SceneryTesting
import Testing

actor ShelfModule: Module {
    static let descriptor = ModuleDescriptor(
        type: "ShelfModule",
        summary: "A reader's shelf.",
        parameters: [
            .message(
                "countText", default: "{count, plural, one {# book} other {# books}}",
                arguments: [MessageArgumentSpec("count", .number, summary: "Books on the shelf.")]),
            .message("emptyText", default: "No books yet."),
        ])

    let shown: String

    init(parameters: ModuleParameters, books: [String]) throws {
        let countText = try parameters.message("countText")
        shown = countText(["count": .integer(books.count)])  // "1 book", "3 books"; "3 本" in a zh scene
    }

    func load(_ request: LoadRequest) async throws {}

    func render() -> ViewNode { .text("count", shown) }
}

// The article's claims about the module, run: its wording in English, and in a Polish scene
// that says it with the plural cases Polish needs.
@Suite struct ShelfModuleSampleTests {
    @Test func theShelfCountsItsBooksInTheScenesLanguage() async throws {
        let english = try ShelfModule(parameters: ModuleParameters(for: ShelfModule.descriptor), books: ["Emma", "Ulysses", "Beloved"])
        #expect(english.shown == "3 books")
        var registry = SceneRegistry(builtIns: false)
        registry.register(ShelfModule.self) { parameters, _ in try ShelfModule(parameters: parameters, books: Array(repeating: "x", count: 5)) }
        let problems = registry.addScene(
            id: "shelf",
            source: """
                { "language": "pl",
                  "modules": [ { "id": "shelf", "type": "ShelfModule",
                                 "params": { "countText": "{count, plural, one {# książka} few {# książki} many {# książek} other {# książki}}" } } ] }
                """)
        #expect(problems.isEmpty, "\(problems)")
        let scene = try await registry.assemble("shelf", for: SceneContext(viewer: nil), host: RecordingHost())
        #expect(await scene.render().node(withID: "shelf/count")?.visibleTexts == ["5 książek"])
    }
}
