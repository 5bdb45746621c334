import Foundation
import Scenery
import Testing

@Suite struct ModuleManifestTests {
    @Test func declaresModuleTypesForValidation() throws {
        let manifest = try ModuleManifest.load(from: Paths.fixtures.appending(path: "PluginConsumer/Scenes/greeting.modules.json"))
        let greeting = try #require(manifest.modules.first)
        #expect(greeting.type == "GreetingModule")
        #expect(greeting.events == ["greeting.wave"])
        #expect(greeting.parameter(named: "style")?.allowedValues == ["plain", "loud"])
        var registry = SceneRegistry()
        registry.declareModules(from: manifest)
        let problems = registry.addScene(
            id: "s", source: #"{ "modules": [ { "id": "g", "type": "GreetingModule", "params": { "user": "1", "style": "lod" } } ] }"#)
        #expect(problems.map(\.message) == ["GreetingModule: 'lod' is not an allowed value of 'style'; did you mean 'loud'? (allowed values: loud, plain)."])
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
