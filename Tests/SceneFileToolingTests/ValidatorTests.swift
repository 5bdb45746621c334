import Foundation
import Scenery
import Testing

@Suite struct ModuleManifestTests {
    @Test func declaresModuleTypesForValidation() throws {
        let manifest = try ModuleManifest.load(from: Paths.fixtures.appending(path: "PluginConsumer/Sources/Consumer/Scenes/greeting.modules.json"))
        let greeting = try #require(manifest.modules.first)
        #expect(greeting.type == "GreetingModule")
        #expect(greeting.events == ["greeting.wave"])
        #expect(greeting.parameter(named: "style")?.allowedValues == ["plain", "loud"])
        var registry = SceneRegistry()
        registry.declareModules(from: manifest)
        let problems = registry.addScene(
            id: "s",
            source:
                #"{ "modules": [ { "id": "g", "type": "GreetingModule", "params": { "user": "1", "style": "lod" } } ], "events": [ { "on": "greeting.wave", "block": true } ] }"#
        )
        #expect(problems.map(\.message) == ["GreetingModule: 'lod' is not an allowed value of 'style'; did you mean 'loud'? (allowed values: loud, plain)."])
    }

    /// An event a module lets bubble must end somewhere: a rule, the module's own default
    /// action, or a host event the app declared. Otherwise its control does nothing.
    @Test func anEventNothingHandlesIsAWarningAtTheModule() throws {
        let manifest = try ModuleManifest.load(from: Paths.fixtures.appending(path: "PluginConsumer/Sources/Consumer/Scenes/greeting.modules.json"))
        var registry = SceneRegistry()
        registry.declareModules(from: manifest)
        let source = """
            {
              "modules": [
                { "id": "g", "type": "GreetingModule", "params": { "user": "1" } }
              ]
            }
            """
        let problems = registry.addScene(id: "s", source: source)
        #expect(problems.count == 1)
        #expect(problems.first?.severity == .warning)
        #expect(
            problems.first?.message
                == "GreetingModule 'g' sends 'greeting.wave', which no event rule of this scene handles and the host does not declare; add a rule (\"on\": \"greeting.wave\") or declare it with SceneRegistry.declareHostEvents."
        )
        #expect(problems.first?.location == SourcePosition(line: 3, column: 26), "at the module's type")
        #expect(!problems.containsErrors, "a warning does not stop the scene")
        // A rule handles it, and so does a host that declares it.
        #expect(
            registry.addScene(id: "s", source: source.replacingOccurrences(of: "\n}", with: #", "events": [ { "on": "greeting.*", "block": true } ] }"#))
                .isEmpty)
        var hosted = registry
        _ = hosted.addScene(id: "s", source: source)
        hosted.declareHostEvents(["greeting.wave"])
        #expect(hosted.diagnostics(for: "s").isEmpty)
    }

    @Test func aBrokenManifestNamesItsPlace() throws {
        let file = FileManager.default.temporaryDirectory.appending(path: "broken-\(UUID().uuidString).modules.json")
        defer { try? FileManager.default.removeItem(at: file) }
        try Data("{ \"modules\": [\n  { \"summary\": \"no type\" }\n] }".utf8).write(to: file)
        #expect {
            try ModuleManifest.load(from: file)
        } throws: { error in
            let message = (error as? SceneryError)?.message ?? ""
            return message.hasPrefix("\(file.path):2:3: error: the module manifest is invalid: the key \"type\" is missing")
        }
    }
}

/// A module declared in Swift before its manifest is generated: the validator finds its type
/// in the target's source and lets scenes use it, unchecked.
@Suite struct ModulesDeclaredInSwiftTests {
    @Test func aDescriptorsLiteralTypeIsFoundInSwiftSourceWhateverItsLayout() {
        let source = #"""
            public static let descriptor = ModuleDescriptor(
                type: "GuestbookModule",
                summary: "Messages.")
            static let other = ModuleDescriptor(type:"PollModule", summary: "A poll.")
            static let computed = ModuleDescriptor(type: Self.name, summary: "Not a literal: not found.")
            static let escaped = ModuleDescriptor(type: "Odd\"Name", summary: "Not a name a scene can write.")
            static let again = ModuleDescriptor(type: "GuestbookModule", summary: "Found once.")
            """#
        #expect(SceneRegistry.moduleTypes(declaredInSwift: source) == ["GuestbookModule", "PollModule"])
    }

    @Test func aSceneMayUseATypeDeclaredInSwiftOnlyAndAnUnknownOneIsStillAnError() {
        var registry = SceneRegistry()
        registry.declareInSwiftOnly(["GuestbookModule"])
        let problems = registry.addScene(
            id: "s",
            source: #"{ "modules": [ { "id": "g", "type": "GuestbookModule", "params": { "pageSize": 5 } }, { "id": "p", "type": "PollModul" } ] }"#)
        #expect(problems.map(\.message) == ["Unknown module type 'PollModul'; registered types: ActionModule, TextModule."])
    }

    @Test func aTypeAManifestDeclaresIsCheckedAsItDeclaresIt() throws {
        let manifest = try ModuleManifest.load(from: Paths.fixtures.appending(path: "PluginConsumer/Sources/Consumer/Scenes/greeting.modules.json"))
        var registry = SceneRegistry()
        registry.declareModules(from: manifest)
        registry.declareInSwiftOnly(["GreetingModule"])
        let problems = registry.addScene(
            id: "s", source: #"{ "modules": [ { "id": "g", "type": "GreetingModule", "params": { "user": "1", "colour": "red" } } ] }"#)
        #expect(problems.contains { $0.message.hasPrefix("GreetingModule has no parameter 'colour'") }, "\(problems.map(\.message))")
    }
}
