import Foundation
import SceneryTesting
import Testing

@testable import Scenery

/// A catalog (`<language>.messages.json`) shows a scene in a viewer's language: the module
/// types' words, the scene's own wording, tabs and confirmations; the validator finds what
/// it leaves out or gets wrong, in the catalog file, where it is written.
@Suite struct MessageCatalogTests {
    struct TabsMissing: Error {}

    actor Shelf: Module {
        static let descriptor = ModuleDescriptor(
            type: "Shelf", summary: "Books.",
            parameters: [
                .message("countText", default: "{count, plural, one {# book} other {# books}}", arguments: [MessageArgumentSpec("count", .number)]),
                .message("header", default: "Books"),
                .message("emptyText", default: "No books."),
            ],
            sends: [remove])
        static let remove = EventKind<Removal>("book.remove")
        struct Removal: Codable, Sendable { var title: String }
        let texts: [String]
        init(parameters: ModuleParameters) throws {
            texts = [try parameters.message("countText")(["count": 2]), try parameters.text("header"), try parameters.text("emptyText")]
        }
        func load(_ request: LoadRequest) async throws {}
        func render() -> ViewNode {
            .stack(
                "s",
                texts.enumerated().map { .text("t\($0.offset)", $0.element) } + [
                    .button("remove", title: "x", sends: Self.remove.descriptor(Removal(title: "Emma")))
                ])
        }
    }

    static let scene = """
        { "title": "Shelf", "language": "en",
          "modules": [ { "id": "shelf", "type": "Shelf", "params": { "emptyText": "Nothing on the shelf." } },
                       { "id": "other", "type": "Shelf" } ],
          "layout": [ { "id": "sections", "tabs": [ { "id": "mine", "title": "Mine", "modules": ["shelf"] },
                                                    { "id": "theirs", "title": "Theirs", "modules": ["other"] } ] } ],
          "events": [ { "on": "book.remove", "confirm": { "title": "Remove $event.title?", "confirm": "Remove", "cancel": "Keep" } } ] }
        """

    static let polish = """
        { "language": "pl",
          "modules": { "Shelf": { "countText": "{count, plural, one {# książka} few {# książki} many {# książek} other {# książki}}",
                                  "header": "Książki", "emptyText": "Brak książek." } },
          "scenes": { "shelf": { "title": "Półka", "params": { "shelf": { "emptyText": "Półka jest pusta." } },
                                 "tabs": { "mine": "Moje", "theirs": "Ich" },
                                 "confirmations": { "book.remove": { "title": "Usunąć $event.title?", "confirm": "Usuń", "cancel": "Zostaw" } } } } }
        """

    func registry(catalog: String = polish, file: String = "Scenes/pl.messages.json") -> SceneRegistry {
        var registry = SceneRegistry(builtIns: false)
        registry.register(Shelf.self) { parameters, _ in try Shelf(parameters: parameters) }
        registry.addMessageCatalog(source: catalog, file: file)
        registry.addScene(id: "shelf", source: Self.scene, file: "Scenes/shelf.json")
        return registry
    }

    @Test func aViewersLanguageShowsTheSceneTranslated() async throws {
        let registry = registry()
        #expect(registry.messageCatalogDiagnostics.isEmpty, "\(registry.messageCatalogDiagnostics)")
        let host = RecordingHost(confirmer: .decliningAll)
        let scene = try await registry.assemble("shelf", for: SceneContext(viewer: "1", locale: "pl-PL"), host: host)
        let shown = await scene.render()
        #expect(shown.node(withID: "shelf/t0")?.visibleTexts == ["2 książki"])
        #expect(shown.node(withID: "shelf/t1")?.visibleTexts == ["Książki"])
        #expect(shown.node(withID: "shelf/t2")?.visibleTexts == ["Półka jest pusta."], "the scene's own wording, from its section")
        guard case .tabs(_, let tabs) = try #require(scene.layout.first) else { throw TabsMissing() }
        #expect(tabs.map(\.title) == ["Moje", "Ich"])
        #expect(registry.title(of: "shelf", in: "pl") == "Półka")
        await scene.send(Event(SceneEvents.selectTab, from: "sections", payload: ["tabs": "sections", "tab": "theirs"]))
        #expect(await scene.render().node(withID: "other/t2")?.visibleTexts == ["Brak książek."], "the module's default, from \"modules\"")
        _ = await scene.send(Event("book.remove", from: "shelf/remove", payload: ["title": "Emma"]))
        #expect(host.confirmations.map(\.title) == ["Usunąć Emma?"])
        #expect(host.confirmations.map(\.confirmLabel) == ["Usuń"])
    }

    @Test func withoutALanguageOrWithAnotherTheSceneIsItsOwn() async throws {
        let registry = registry()
        for locale in [nil, "en-GB", "xx"] {
            let scene = try await registry.assemble("shelf", for: SceneContext(viewer: "1", locale: locale), host: RecordingHost())
            let shown = await scene.render()
            #expect(shown.node(withID: "shelf/t0")?.visibleTexts == ["2 books"], "\(String(describing: locale))")
            #expect(shown.node(withID: "shelf/t2")?.visibleTexts == ["Nothing on the shelf."])
        }
        #expect(registry.title(of: "shelf", in: "en") == "Shelf")
    }

    @Test(arguments: [("pl", "pl"), ("pl-PL", "pl"), ("PL", "pl"), ("en", "en"), ("en-US", "en"), ("fr", "en"), ("", "en")])
    func theLanguageIsNegotiatedAlongItsFallbacks(requested: String, shown: String) {
        #expect(registry().language(of: "shelf", for: requested) == shown)
    }

    @Test func aSceneCanBeShownInItsOwnLanguageAndItsCatalogsOnly() {
        let registry = registry()
        #expect(registry.canShow("shelf", in: "pl-PL"))
        #expect(registry.canShow("shelf", in: "en-GB"))
        #expect(!registry.canShow("shelf", in: "fr"))
        #expect(!registry.canShow("shelf", in: ""))
    }

    @Test func aScriptOrRegionFindsTheCatalogOfItsLanguage() {
        var registry = registry()
        registry.addMessageCatalog(source: #"{ "language": "zh-Hans" }"#, file: "Scenes/zh-Hans.messages.json")
        #expect(registry.language(of: "shelf", for: "zh-CN") == "zh-Hans")
        #expect(registry.language(of: "shelf", for: "zh") == "zh-Hans")
        #expect(registry.translatedLanguages == ["pl", "zh-Hans"])
    }

    @Test func whatACatalogLeavesOutIsAnErrorNamingWhereItGoes() {
        let registry = registry(catalog: #"{ "language": "pl", "modules": { "Shelf": { "header": "Książki" } } }"#)
        let messages = registry.messageCatalogDiagnostics.map(\.message)
        #expect(messages.contains { $0.contains("Shelf's 'countText'") && $0.contains("add it at modules.Shelf.countText") }, "\(messages)")
        #expect(
            messages.contains { $0.contains("sets shelf.emptyText to 'Nothing on the shelf.' (en)") && $0.contains("scenes.shelf.params.shelf.emptyText") },
            "\(messages)")
        #expect(messages.contains { $0.contains("titled 'Shelf'") }, "\(messages)")
        #expect(messages.contains { $0.contains("The tab 'mine'") }, "\(messages)")
        #expect(messages.contains { $0.contains("confirmation of 'book.remove'") && $0.contains(".title") }, "\(messages)")
        #expect(registry.messageCatalogDiagnostics.allSatisfy { $0.file == "Scenes/pl.messages.json" && $0.severity == .error })
    }

    @Test func aWrongTranslationIsAnErrorWhereItIsWritten() throws {
        let catalog = """
            { "language": "pl",
              "modules": { "Shelf": { "countText": "{count, plural, one {# książka} other {# książki}}", "header": "{oops",
                                      "emptyText": "Brak", "colour": "x" },
                           "Shelv": {} },
              "scenes": { "shelf": { "title": "Półka", "params": { "shelf": { "emptyText": "Pusta" }, "shelff": {} },
                                     "tabs": { "mine": "Moje", "theirs": "Ich", "yours": "Wasze" },
                                     "confirmations": { "book.remove": { "title": "Usunąć?", "confirm": "Usuń", "cancel": "Zostaw" },
                                                        "book.add": { "title": "x" } } },
                          "shelves": {} } }
            """
        let found = registry(catalog: catalog).messageCatalogDiagnostics
        func problem(_ fragment: String) -> Diagnostic? { found.first { $0.message.contains(fragment) } }
        let plural = try #require(problem("without few, many, which pl needs"), "\(found.map(\.message))")
        #expect(plural.location?.line == 2)
        let syntax = try #require(problem("'header' is not a valid message"))
        // The value's quote is at byte 108 of line 2 (ą and ż are two bytes each); the
        // message ends, unclosed, after its five characters.
        #expect(syntax.location == SourcePosition(line: 2, column: 108 + 1 + 5), "at the end of \"{oops\": \(String(describing: syntax.location))")
        #expect(problem("Shelf has no message 'colour'") != nil)
        #expect(problem("no module type 'Shelv' (did you mean 'Shelf'?)") != nil || problem("no module type 'Shelv'") != nil)
        #expect(problem("has no module 'shelff'") != nil)
        #expect(problem("has no tab 'yours'") != nil)
        #expect(problem("asks no confirmation of 'book.add'") != nil)
        #expect(problem("drops $event.title") != nil)
        #expect(problem("no valid scene 'shelves'") != nil)
    }

    @Test func aTranslationThatDropsAnArgumentIsAnError() {
        let catalog = """
            { "language": "pl", "modules": { "Shelf": { "countText": "{count, plural, one {książka} few {książki} many {książek} other {książki}}",
                                                        "header": "Książki", "emptyText": "Brak" } } }
            """
        let found = registry(catalog: catalog).messageCatalogDiagnostics.map(\.message)
        #expect(found.contains { $0.contains("drops {count}") } == false, "# counts as using it")
        let dropped = registry(catalog: #"{ "language": "pl", "modules": { "Shelf": { "countText": "książki" } } }"#).messageCatalogDiagnostics.map(\.message)
        #expect(dropped.contains { $0.contains("Shelf's 'countText' drops {count}") }, "\(dropped)")
    }

    @Test(arguments: [
        (#"{ "modules": {} }"#, "needs \"language\""),
        (#"{ "language": "pl" "#, "end of file"),
        (#"[]"#, "must be a JSON object"),
        (#"{ "language": "Polish!" }"#, "BCP 47"),
        (#"{ "language": "de" }"#, "must be named 'de.messages.json'"),
        (#"{ "language": "pl", "modules": { "Shelf": { "header": 3 } } }"#, "must be a string"),
        (#"{ "language": "pl", "sceens": {} }"#, "did you mean 'scenes'?"),
    ])
    func aMalformedCatalogIsAnErrorNotACrash(source: String, fragment: String) {
        var registry = SceneRegistry(builtIns: false)
        let problems = registry.addMessageCatalog(source: source, file: "Scenes/pl.messages.json")
        #expect(problems.contains { $0.message.contains(fragment) && $0.severity == .error }, "\(problems)")
        #expect(registry.messageCatalogDiagnostics.contains { $0.message.contains(fragment) })
    }

    @Test func aCatalogLinkedFromOutsideItsFolderIsRefusedAsASceneFileIs() throws {
        let work = FileManager.default.temporaryDirectory.appending(path: "scenery-catalog-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: work) }
        let folder = work.appending(path: "Scenes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let outside = work.appending(path: "pl.messages.json")
        try Data(Self.polish.utf8).write(to: outside)
        try FileManager.default.createSymbolicLink(at: folder.appending(path: "pl.messages.json"), withDestinationURL: outside)
        var registry = SceneRegistry(builtIns: false)
        let problems = try registry.loadScenes(in: folder)
        #expect(problems.contains { $0.file == "Scenes/pl.messages.json" && $0.message.contains("link to a file outside its folder") }, "\(problems)")
        #expect(registry.translatedLanguages.isEmpty)
    }

    @Test(arguments: ["{oops", "{total} książek", "Książki: %d"])
    func anInvalidTranslationLeavesTheOriginalOnThePage(header: String) async throws {
        let registry = registry(catalog: #"{ "language": "pl", "modules": { "Shelf": { "header": "\#(header)" } } }"#)
        let scene = try await registry.assemble("shelf", for: SceneContext(viewer: "1", locale: "pl"), host: RecordingHost())
        #expect(await scene.render().node(withID: "shelf/t1")?.visibleTexts == ["Books"])
    }
}
