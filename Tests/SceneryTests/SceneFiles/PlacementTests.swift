import Scenery
import SceneryTesting
import Testing

/// Where a module no layout names goes: `"after"`, `"before"` a module (inside its tab when
/// it is in one) or `"at": "top"`, instead of the bottom of the page; and the errors of a
/// placement that names no module.
@Suite struct PlacementTests {
    static let profile = """
        {
          "parameters": { "user": "userID" },
          "modules": [
            { "id": "info", "type": "ProfileModule", "params": { "user": "$user" } },
            { "id": "friends", "type": "ProfileModule", "params": { "user": "$user" } },
            { "id": "blogs", "type": "ProfileModule", "params": { "user": "$user" } },
            { "id": "drafts", "type": "ProfileModule", "params": { "user": "$user" } }
          ],
          "layout": [ "info", "friends", { "id": "sections", "tabs": [
            { "id": "blogs", "title": "Blogs", "modules": ["blogs"] },
            { "id": "drafts", "title": "Drafts", "modules": ["drafts"] } ] } ]
        }
        """

    func order(of scene: String, extending source: String = profile) async throws -> [ModuleID] {
        var registry = SceneRegistry.testing(TestService())
        #expect(registry.addScene(id: "profile", source: source).isEmpty)
        let problems = registry.addScene(id: "app", source: scene)
        #expect(problems.isEmpty, "\(problems)")
        return try await registry.assemble("app", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: RecordingHost()).modules
    }

    @Test func anAddedModuleGoesWhereItIsPlacedWithoutRestatingTheLayout() async throws {
        let modules = try await order(
            of: """
                { "extends": "profile", "variants": [ { "name": "all", "add": [
                  { "id": "bin", "type": "ProfileModule", "params": { "user": "$user" }, "after": "info" },
                  { "id": "banner", "type": "ProfileModule", "params": { "user": "$user" }, "at": "top" },
                  { "id": "pinned", "type": "ProfileModule", "params": { "user": "$user" }, "before": "blogs" },
                  { "id": "footer", "type": "ProfileModule", "params": { "user": "$user" } }
                ] } ] }
                """)
        #expect(modules == ["banner", "info", "bin", "friends", "pinned", "blogs", "drafts", "footer"])
    }

    @Test func aModuleOfTheSceneItselfMayBePlacedToo() async throws {
        let modules = try await order(
            of: """
                { "extends": "profile", "modules": [ { "id": "note", "type": "ProfileModule", "params": { "user": "$user" }, "after": "drafts" } ] }
                """)
        #expect(modules == ["info", "friends", "blogs", "drafts", "note"])
    }

    @Test func anAddedModuleIsPlacedInAPageWithNoLayoutOfItsOwn() async throws {
        let plain = """
            { "parameters": { "user": "userID" }, "modules": [
              { "id": "info", "type": "ProfileModule", "params": { "user": "$user" } },
              { "id": "friends", "type": "ProfileModule", "params": { "user": "$user" } },
              { "id": "blogs", "type": "ProfileModule", "params": { "user": "$user" } } ] }
            """
        let modules = try await order(
            of: """
                { "extends": "profile", "modules": [
                  { "id": "album", "type": "ProfileModule", "params": { "user": "$user" }, "after": "friends" },
                  { "id": "banner", "type": "ProfileModule", "params": { "user": "$user" }, "at": "top" },
                  { "id": "footer", "type": "ProfileModule", "params": { "user": "$user" } } ] }
                """, extending: plain)
        #expect(modules == ["banner", "info", "friends", "album", "blogs", "footer"])
    }

    @Test func aPlacementNextToNoModuleIsAnErrorWithWhereAndWhatToDo() {
        var registry = SceneRegistry.testing(TestService())
        registry.addScene(id: "profile", source: Self.profile)
        let problems = registry.addScene(
            id: "app",
            source: """
                { "extends": "profile", "variants": [ { "name": "all", "add": [
                  { "id": "bin", "type": "ProfileModule", "params": { "user": "$user" }, "after": "inf" }
                ] } ] }
                """)
        let problem = problems.first
        #expect(problem?.message == "'bin' is placed after 'inf', which is not a module of this scene (did you mean 'info'?); name one of its modules.")
        #expect(problem?.file == "app.json")
        #expect(problem?.location?.line == 2)
        #expect(problems.count == 1, "one error, not one per variant: \(problems)")
    }

    @Test func aModuleIsPlacedOnce() {
        var registry = SceneRegistry.testing(TestService())
        registry.addScene(id: "profile", source: Self.profile)
        let problems = registry.addScene(
            id: "app",
            source: """
                { "extends": "profile", "modules": [ { "id": "x", "type": "ProfileModule", "after": "info", "before": "info" } ] }
                """)
        #expect(problems.contains { $0.message.contains("A module is placed once: use one of \"after\", \"before\", not several.") }, "\(problems)")
        let top = registry.addScene(id: "top", source: #"{ "extends": "profile", "modules": [ { "id": "x", "type": "ProfileModule", "at": "bottom" } ] }"#)
        #expect(top.contains { $0.message.contains("'at' places a module at \"top\"") }, "\(top)")
    }
}
