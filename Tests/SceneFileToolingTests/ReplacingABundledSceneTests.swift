import Foundation
import ProfileDemo
import ProfileDemoScenes
import Testing

@testable import Scenery

/// An app's scene that extends its own id builds on the scene of that id it replaces (the
/// bundled `user-profile`), so every link to that id leads to the app's version, and
/// validation, listing and running agree about it.
@Suite struct ReplacingABundledSceneTests {
    static let addition = #"""
        { "extends": "user-profile",
          "modules": [ { "id": "latest", "type": "BlogModule", "params": { "author": "$user", "pageSize": 1, "header": "Latest" } } ] }
        """#

    func bundled() throws -> SceneRegistry {
        var registry = SceneRegistry()
        registry.declareProfileModules()
        try registry.addBundledScenes()
        return registry
    }

    func resolved(_ registry: SceneRegistry) throws -> ResolvedScene {
        var problems: [Diagnostic] = []
        return try registry.resolve("user-profile", problems: &problems)
    }

    @Test func anAppSceneBuildsOnTheBundledSceneOfItsOwnId() throws {
        var registry = try bundled()
        let before = try resolved(registry)
        let title = try #require(registry.title(of: "user-profile"))
        let problems = registry.addScene(id: "user-profile", source: Self.addition, file: "App/user-profile.json")
        #expect(problems.filter { $0.severity == .error }.isEmpty, "\(problems)")
        #expect(registry.sceneIDs == BundledScenes.ids.sorted(), "one user-profile, the replaced one hidden")
        #expect(registry.definition(of: "user-profile")?.file == "App/user-profile.json")
        #expect(registry.title(of: "user-profile") == title, "inherited from the scene it builds on")
        let after = try resolved(registry)
        #expect(after.variants.map(\.name) == before.variants.map(\.name), "every variant of the bundled scene")
        for (old, new) in zip(before.variants, after.variants) {
            #expect(new.modules.map(\.id).filter { $0 != "latest" } == old.modules.map(\.id), "\(new.name): the bundled modules, in order")
            #expect(new.modules.filter { $0.id == "latest" }.count == 1, "\(new.name): and the app's")
        }
        #expect(registry.allDiagnostics.filter { $0.severity == .error }.isEmpty)
    }

    @Test func addingTheAppSceneAgainStillBuildsOnTheBundledOne() throws {
        var registry = try bundled()
        registry.addScene(id: "user-profile", source: Self.addition, file: "App/user-profile.json")
        let problems = registry.addScene(id: "user-profile", source: Self.addition, file: "App/user-profile.json")
        #expect(problems.filter { $0.severity == .error }.isEmpty, "\(problems)")
        #expect(try resolved(registry).variants.allSatisfy { $0.modules.filter { $0.id == "latest" }.count == 1 })
    }

    @Test func validationProvesPrivacyOnTheMergedScene() throws {
        var registry = try bundled()
        let problems = registry.addScene(
            id: "user-profile",
            source: #"{ "extends": "user-profile", "modules": [ { "id": "more", "type": "DraftModule", "params": { "owner": "$user" } } ] }"#,
            file: "App/user-profile.json")
        #expect(problems.contains { $0.severity == .error && $0.message.contains("DraftModule") }, "\(problems)")
    }

    @Test func aSceneThatExtendsItsOwnIdWithNothingBeforeItSaysSo() throws {
        var registry = SceneRegistry()
        registry.declareProfileModules()
        let problems = registry.addScene(id: "user-profile", source: Self.addition, file: "App/user-profile.json")
        let problem = try #require(problems.first { $0.severity == .error })
        #expect(
            problem.message.hasPrefix(
                "The scene 'user-profile' extends its own id, which builds on the scene 'user-profile' it replaces, and none was added before it"))
        #expect(problem.location?.line == 1)
        #expect(!problems.contains { $0.message.contains("cycle") })
    }

    @Test func aPlainReplacementForgetsTheSceneItBuiltOn() throws {
        var registry = try bundled()
        registry.addScene(id: "user-profile", source: Self.addition, file: "App/user-profile.json")
        #expect(registry.definitions["user-profile/replaced"] != nil)
        registry.addScene(id: "user-profile", source: #"{ "parameters": { "user": "userID" }, "modules": [] }"#, file: "App/user-profile.json")
        #expect(registry.definitions["user-profile/replaced"] == nil)
        #expect(try resolved(registry).variants.allSatisfy { $0.modules.isEmpty })
    }
}
