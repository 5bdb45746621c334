import SceneryTesting
import Testing

@testable import Scenery

/// What a list shows first: its `pageSize` parameter as the scene gives it (or its default),
/// which a host holding a window of the list starts with.
@Suite struct PageSizeTests {
    @Test func aListsFirstPageIsItsPageSizeAsTheSceneGivesIt() async throws {
        var registry = SceneRegistry.testing(TestService())
        let source = """
            { "modules": [
              { "id": "given", "type": "ItemsModule", "params": { "owner": "1", "pageSize": 4 } },
              { "id": "default", "type": "ItemsModule", "params": { "owner": "1" } },
              { "id": "profile", "type": "ProfileModule", "params": { "user": "1" } }
            ] }
            """
        #expect(registry.addScene(id: "lists", source: source).isEmpty)
        let scene = try registry.instantiate("lists", for: SceneContext(viewer: "1"), host: RecordingHost())
        #expect(scene.pageSizes == ["given": 4, "default": 3], "a module without the parameter has none")
    }
}
