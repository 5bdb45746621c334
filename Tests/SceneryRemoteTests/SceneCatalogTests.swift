import SceneryRemote
import SceneryTesting
import Testing

@testable import Scenery

@Suite struct SceneCatalogTests {
    static let origin = "https://scenes.example/scenes/home.json"

    /// An app with TextModule (version 1) and ActionModule, shipping one scene "home" and a
    /// scene that extends it.
    func makeCatalog() -> SceneCatalog {
        var registry = SceneRegistry()
        registry.addScenes(sources: [
            ("home", #"{ "modules": [ { "id": "hello", "type": "TextModule", "params": { "title": "Bundled hello" } } ] }"#, "Scenes/home.json"),
            (
                "home-plus", #"{ "extends": "home", "replace": [ { "id": "hello", "type": "TextModule", "params": { "title": "Plus" } } ] }"#,
                "Scenes/home-plus.json"
            ),
        ])
        return SceneCatalog(registry: registry)
    }

    func texts(_ catalog: SceneCatalog, _ scene: String = "home") async throws -> [String] {
        let instance = try await catalog.registry.assemble(scene, for: SceneContext(viewer: nil), host: RecordingHost())
        return await instance.render().visibleTexts
    }

    @Test func aValidNewVersionBecomesActive() async throws {
        var catalog = makeCatalog()
        #expect(catalog.origins["home"] == "bundled")
        let offer = catalog.offer(
            SceneDocument(
                id: "home", source: #"{ "modules": [ { "id": "hello", "type": "TextModule", "params": { "title": "Fresh hello" } } ] }"#, origin: Self.origin))
        #expect(offer.outcome == .activated)
        #expect(catalog.origins["home"] == Self.origin)
        #expect(try await texts(catalog).contains("Fresh hello"))
        // The same text again changes nothing.
        #expect(catalog.offer(offer.document).outcome == .unchanged)
    }

    @Test func aBrokenVersionLeavesThePreviousOneAndSaysWhereAndWhy() async throws {
        var catalog = makeCatalog()
        let offer = catalog.offer(
            SceneDocument(
                id: "home", source: "{\n  \"modules\": [ { \"id\": \"hello\", \"type\": \"TextModule\", \"params\": { \"titel\": \"Oops\" } } ]\n}",
                origin: Self.origin))
        #expect(offer.outcome == .rejected)
        #expect(offer.diagnostics.first?.description.hasPrefix("\(Self.origin):2:") == true, "\(offer.diagnostics)")
        #expect(catalog.origins["home"] == "bundled")
        #expect(try await texts(catalog).contains("Bundled hello"))
        // Not JSON at all: the same.
        #expect(catalog.offer(SceneDocument(id: "home", source: "<html>", origin: Self.origin)).outcome == .rejected)
        #expect(try await texts(catalog).contains("Bundled hello"))
    }

    @Test func aVersionThatNeedsANewerModuleKeepsThePreviousOneByDefault() async throws {
        var catalog = makeCatalog()
        let offer = catalog.offer(
            SceneDocument(
                id: "home",
                source: #"{ "requires": { "TextModule": 2 }, "modules": [ { "id": "hello", "type": "TextModule", "params": { "title": "Needs v2" } } ] }"#,
                origin: Self.origin))
        #expect(offer.outcome == .rejected)
        #expect(offer.diagnostics.first?.message.contains("needs TextModule version 2, and this app has version 1") == true)
        #expect(offer.diagnostics.first?.path == "requires.TextModule")
        #expect(try await texts(catalog).contains("Bundled hello"))
    }

    @Test func aVersionThatSaysDropRunsWithoutWhatTheAppLacks() async throws {
        var catalog = makeCatalog()
        let offer = catalog.offer(
            SceneDocument(
                id: "home",
                source: """
                    { "fallback": "drop", "requires": { "MapModule": 1 },
                      "modules": [ { "id": "hello", "type": "TextModule", "params": { "title": "Still here" } },
                                   { "id": "map", "type": "MapModule", "params": { "zoom": 3 } } ],
                      "layout": [ "map", "hello" ] }
                    """,
                origin: Self.origin))
        #expect(offer.outcome == .activatedWithout(1))
        #expect(offer.diagnostics.map(\.severity) == [.warning])
        #expect(offer.diagnostics.first?.message.contains("Left out the module 'map' (MapModule)") == true)
        #expect(offer.diagnostics.first?.location?.line == 3)
        #expect(try await texts(catalog).contains("Still here"))
    }

    @Test func aNewerFormatAlwaysKeepsThePreviousVersion() async throws {
        var catalog = makeCatalog()
        let offer = catalog.offer(
            SceneDocument(id: "home", source: #"{ "format": 2, "fallback": "drop", "blocks": [] }"#, origin: Self.origin))
        #expect(offer.outcome == .rejected)
        #expect(offer.diagnostics.first?.message.contains("scene-file format 2, and this app reads format 1") == true)
        #expect(try await texts(catalog).contains("Bundled hello"))
    }

    @Test func aVersionThatBreaksAChildSceneIsNotUsed() async throws {
        var catalog = makeCatalog()
        // home-plus replaces "hello"; a home without it would break home-plus.
        let offer = catalog.offer(
            SceneDocument(
                id: "home", source: #"{ "modules": [ { "id": "greeting", "type": "TextModule", "params": { "title": "Renamed" } } ] }"#, origin: Self.origin))
        #expect(offer.outcome == .rejected)
        #expect(offer.diagnostics.contains { $0.message.contains("Cannot replace 'hello'") })
        #expect(try await texts(catalog, "home-plus").contains("Plus"))
    }

    @Test func withdrawingBringsTheBundledVersionBackUnlessAChildNeedsTheNewOne() async throws {
        var catalog = makeCatalog()
        catalog.offer(SceneDocument(id: "home", source: Self.home("Fresh"), origin: Self.origin))
        catalog.offer(SceneDocument(id: "extra", source: Self.home("Extra"), origin: "https://scenes.example/scenes/extra.json"))
        catalog.offer(
            SceneDocument(
                id: "extra-child", source: #"{ "extends": "extra", "replace": [ { "id": "hello", "type": "TextModule", "params": { "title": "Child" } } ] }"#,
                origin: "https://scenes.example/scenes/extra-child.json"))
        #expect(catalog.withdraw("home", origin: Self.origin).outcome == .activated)
        #expect(catalog.origins["home"] == "bundled")
        #expect(try await texts(catalog).contains("Bundled hello"))
        // "extra" has no bundled version and a child needs it: it stays.
        let refused = catalog.withdraw("extra", origin: Self.origin)
        #expect(refused.outcome == .rejected)
        #expect(catalog.registry.sceneIDs.contains("extra"))
        // The child first, then the parent: both go.
        #expect(catalog.withdraw("extra-child", origin: Self.origin).outcome == .activated)
        #expect(catalog.withdraw("extra", origin: Self.origin).outcome == .activated)
        #expect(!catalog.registry.sceneIDs.contains("extra"))
        #expect(catalog.withdraw("extra", origin: Self.origin).outcome == .unchanged)
    }

    static func home(_ title: String) -> String {
        #"{ "modules": [ { "id": "hello", "type": "TextModule", "params": { "title": "\#(title)" } } ] }"#
    }

    @Test func requirementsAreCheckedWhenTheFileIsRead() {
        var registry = SceneRegistry()
        registry.addScene(id: "bad", source: #"{ "format": 0, "requires": { "TextModule": "two" }, "fallback": "maybe", "modules": [] }"#)
        let messages = registry.diagnostics(for: "bad").map(\.message)
        #expect(messages.count == 3, "\(messages)")
        #expect(messages.contains { $0.contains("\"fallback\" must be \"previous\"") })
    }
}
