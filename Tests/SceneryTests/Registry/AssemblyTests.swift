import SceneryTesting
import Testing

@testable import Scenery

@Suite struct AssemblyTests {
    let service = TestService()
    var registry: SceneRegistry { .testing(service, scenes: Fixtures.all) }

    @Test func ownerGetsTheOwnerVariantWithPrivateModule() async throws {
        let scene = try await registry.assemble("profile", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: RecordingHost())
        #expect(scene.variant == "owner")
        let tree = await scene.render()
        #expect(tree.moduleFrame("info") != nil)
        #expect(tree.node(withID: "sections") != nil)
        #expect(await scene.visibleModules == ["info", "items"])
    }

    @Test(arguments: [Optional("2"), nil])
    func anyoneElseNeverGetsThePrivateModule(viewer: String?) async throws {
        let scene = try await registry.assemble("profile", for: SceneContext(viewer: viewer, arguments: ["user": "1"]), host: RecordingHost())
        #expect(scene.variant == "default")
        let tree = await scene.render()
        #expect(tree.moduleFrame("secrets") == nil)
        #expect(!tree.visibleTexts.contains("Delete secret"))
        #expect(!JSONRenderer().render(tree).contains("secret"))
    }

    @Test func substitutesParametersAndFillsDefaults() async throws {
        let scene = try await registry.assemble("list", for: SceneContext(viewer: "2", arguments: ["user": 1]), host: RecordingHost())
        #expect(await scene.render().visibleTexts.contains("List: Alice"))
        #expect(scene.context.arguments["user"] == "1", "user ids are handed over as strings")
    }

    @Test func extendsAddsRemovesAndReplacesModules() async throws {
        var registry = registry
        let problems = registry.addScene(
            id: "profile-lite",
            source: """
                {
                  "extends": "list",
                  "remove": ["info"],
                  "modules": [ { "id": "note", "type": "TextModule", "params": { "title": "Hi $user" } } ],
                  "variants": [ { "name": "me", "when": "viewer == user",
                                  "replace": [ { "id": "note", "type": "TextModule", "params": { "title": "It's you" } } ] } ]
                }
                """)
        #expect(problems.isEmpty, "\(problems)")
        let other = try await registry.assemble("profile-lite", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: RecordingHost())
        #expect(await other.render().visibleTexts == ["Hi 1"])
        let me = try await registry.assemble("profile-lite", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: RecordingHost())
        #expect(await me.render().visibleTexts == ["It's you"])
    }

    @Test func unknownSceneSuggestsTheClosest() async {
        await #expect {
            _ = try await registry.assemble("profil", for: SceneContext(viewer: "1"), host: RecordingHost())
        } throws: { error in
            let error = error as? SceneryError
            return error?.code == .unknownScene && error?.message == "No scene 'profil' is registered; did you mean 'profile'? (scenes: detail, list, profile)."
        }
    }

    @Test(arguments: [
        ([String: JSONValue](), "needs the argument 'user'"),
        (["user": "1", "usr": "2"], "has no parameter 'usr'; did you mean 'user'? (parameters: user)."),
        (["user": true], "must be a user id (string or integer), not a Boolean"),
    ])
    func rejectsBadArguments(arguments: [String: JSONValue], message: String) async {
        await #expect {
            _ = try await registry.assemble("profile", for: SceneContext(viewer: "1", arguments: arguments), host: RecordingHost())
        } throws: { error in
            let error = error as? SceneryError
            return error?.code == .invalidArgument && error?.message.contains(message) == true
        }
    }

    @Test func refusesToAssembleAnInvalidSceneAndSaysWhy() async {
        var registry = registry
        registry.addScene(id: "broken", source: #"{ "modules": [ { "id": "x", "type": "Nope" } ] }"#)
        await #expect {
            _ = try await registry.assemble("broken", for: SceneContext(viewer: "1"), host: RecordingHost())
        } throws: { error in
            let error = error as? SceneryError
            return error?.code == .invalidScene && error?.diagnostics.first?.message.contains("Unknown module type 'Nope'") == true
        }
    }

    @Test func keepsGoodScenesWhenAnotherIsBroken() async throws {
        var registry = registry
        registry.addScene(id: "broken", source: "{ nope")
        #expect(registry.diagnostics(for: "broken").containsErrors)
        _ = try await registry.assemble("list", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: RecordingHost())
    }

    @Test func declaredModulesValidateButCannotBeAssembled() async {
        var registry = SceneRegistry()
        registry.declare(ProfileTestModule.descriptor)
        let problems = registry.addScene(id: "list", source: Fixtures.list)
        #expect(problems.isEmpty)
        await #expect {
            _ = try await registry.assemble("list", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: RecordingHost())
        } throws: { ($0 as? SceneryError)?.code == .moduleCreationFailed }
    }
}

@Suite struct SceneLanguageTests {
    @Test func titleAndLanguageAreInheritedThroughExtends() {
        var registry = SceneRegistry()
        registry.addScene(id: "base", source: #"{ "title": "Profile", "language": "en", "modules": [] }"#)
        registry.addScene(id: "zh", source: #"{ "extends": "base", "language": "zh-Hans" }"#)
        registry.addScene(id: "copy", source: #"{ "extends": "zh" }"#)
        #expect(registry.language(of: "zh") == "zh-Hans")
        #expect(registry.language(of: "copy") == "zh-Hans")
        #expect(registry.title(of: "copy") == "Profile")
        #expect(registry.language(of: "missing") == nil)
    }
}

@Suite struct SceneCostTests {
    @Test func runningOneSceneValidatesOnlyThatScene() async throws {
        var registry = SceneRegistry()
        // 1,000 scenes, each extending the next, and one unrelated scene.
        registry.addScenes(
            sources: (0..<1_000).map { index in
                ("chain\(index)", index == 999 ? #"{ "modules": [] }"# : #"{ "extends": "chain\#(index + 1)" }"#, "chain\(index).json")
            } + [("hello", #"{ "modules": [ { "id": "t", "type": "TextModule", "params": { "title": "Hi" } } ] }"#, "hello.json")])
        let scene = try await registry.assemble("hello", for: SceneContext(viewer: nil), host: RecordingHost())
        #expect(await scene.render().visibleTexts.contains("Hi"))
        #expect(registry.validatedSceneCount == 1, "the 1,000 unrelated scenes were not validated")
    }

    @Test func aBrokenSceneFileDoesNotStopTheOthers() async throws {
        var registry = SceneRegistry()
        let chain = (0..<60_000).map { _ in "viewer == user" }.joined(separator: " || ")
        registry.addScenes(sources: [
            ("broken", "{ not json", "broken.json"),
            ("huge", #"{ "parameters": { "user": "userID" }, "variants": [ { "name": "v", "when": "\#(chain)" } ] }"#, "huge.json"),
            ("hello", #"{ "modules": [ { "id": "t", "type": "TextModule", "params": { "title": "Hi" } } ] }"#, "hello.json"),
        ])
        let scene = try await registry.assemble("hello", for: SceneContext(viewer: nil), host: RecordingHost())
        #expect(await scene.render().visibleTexts.contains("Hi"))
        #expect(registry.diagnostics(for: "broken").containsErrors)
    }
}
