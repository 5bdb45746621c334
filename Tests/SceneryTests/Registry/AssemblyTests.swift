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

    @Test func anErrorsCodeIsAValueThatComparesAndSaysItsName() {
        let codes: [SceneryError.Code] = [.unknownScene, .invalidScene, .invalidArgument, .moduleCreationFailed, .unreadableFile]
        #expect(Set(codes).count == 5)
        #expect(codes.map(\.description) == ["unknownScene", "invalidScene", "invalidArgument", "moduleCreationFailed", "unreadableFile"])
        #expect(SceneryError(.unknownScene, "x").code == .unknownScene)
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

    @Test func aManifestDeclaringARegisteredTypeKeepsItsFactory() async throws {
        var registry = SceneRegistry.testing(TestService())
        registry.declare(ProfileTestModule.descriptor)  // the package's manifest, found beside its scenes
        #expect(registry.addScene(id: "list", source: Fixtures.list).isEmpty)
        let scene = try await registry.assemble("list", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: RecordingHost())
        #expect(scene.modules.count == 1)
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

    /// A chain of n scenes, each extending the next, costs n applications of a scene file
    /// to validate all of it, not n² (each scene used to resolve its whole chain again).
    @Test func validatingAnExtendsChainAppliesEachSceneOnce() {
        var registry = SceneRegistry()
        let count = 400
        registry.addScenes(
            sources: (0..<count).map { index in
                let module = #"{ "id": "m\#(index)", "type": "TextModule", "params": { "title": "Block \#(index)" } }"#
                let source =
                    index == count - 1
                    ? #"{ "modules": [ \#(module) ] }"#
                    : #"{ "extends": "chain\#(index + 1)", "modules": [ \#(module) ] }"#
                return ("chain\(index)", source, "chain\(index).json")
            })
        #expect(registry.allDiagnostics.isEmpty)
        #expect(registry.appliedDefinitionCount == count)
        // The deepest scene has every ancestor's module.
        #expect(registry.variantNames(of: "chain0") == ["default"])
    }

    /// Validating scenes one by one shares what was resolved: asking about every scene of a
    /// chain in turn still applies each scene once.
    @Test func validatingSceneBySceneSharesResolvedBases() {
        var registry = SceneRegistry()
        registry.addScenes(
            sources: (0..<100).map { index in
                ("c\(index)", index == 99 ? #"{ "modules": [] }"# : #"{ "extends": "c\#(index + 1)" }"#, "c\(index).json")
            })
        for index in 0..<100 { #expect(registry.diagnostics(for: "c\(index)").isEmpty) }
        #expect(registry.validatedSceneCount == 100)
        #expect(registry.appliedDefinitionCount == 100)
    }

    /// Resolution indexes modules by id: a scene with 20,000 modules and a child that
    /// replaces, removes and adds some resolves with every change applied.
    @Test func aSceneWithManyModulesResolvesEveryChange() async throws {
        var registry = SceneRegistry()
        let modules = (0..<20_000).map { #"{ "id": "m\#($0)", "type": "TextModule", "params": { "title": "Block \#($0)" } }"# }
        registry.addScenes(sources: [
            ("big", #"{ "modules": [ \#(modules.joined(separator: ",")) ] }"#, "big.json"),
            (
                "child",
                #"{ "extends": "big", "remove": ["m5", "m19999"], "replace": [ { "id": "m7", "type": "TextModule", "params": { "title": "Seven" } } ], "modules": [ { "id": "extra", "type": "TextModule", "params": { "title": "Extra" } } ] }"#,
                "child.json"
            ),
            ("twice", #"{ "extends": "big", "modules": [ { "id": "m8", "type": "TextModule", "params": { "title": "Again" } } ] }"#, "twice.json"),
        ])
        #expect(registry.diagnostics(for: "child").isEmpty)
        let problems = registry.diagnostics(for: "twice")
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains("Duplicate module id 'm8'") == true)
        let scene = try await registry.assemble("child", for: SceneContext(viewer: nil), host: RecordingHost())
        let texts = await scene.render().visibleTexts
        #expect(texts.contains("Seven") && texts.contains("Extra"))
        #expect(!texts.contains("Block 5") && !texts.contains("Block 19999") && !texts.contains("Block 7"))
        #expect(texts.contains("Block 19998"))
    }
}
