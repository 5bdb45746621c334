import Foundation
import Scenery
import SceneryProfile
import SceneryScenes
import Testing

/// The bundled scenes as package resources: all of `Scenes/`, as they are in the checkout.
@Suite struct BundledScenesTests {
    static let sceneFolder = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "../../Scenes").standardized

    @Test func everySceneFileIsAResourceWithTheSameText() throws {
        let inCheckout = try FileManager.default.contentsOfDirectory(atPath: Self.sceneFolder.path).filter { $0.hasSuffix(".json") }.sorted()
        let inResources = try FileManager.default.contentsOfDirectory(atPath: BundledScenes.directory.path).filter { $0.hasSuffix(".json") }.sorted()
        // A file added to Scenes/ must be listed in Package.swift's SceneryScenes resources.
        #expect(inResources == inCheckout)
        for name in inCheckout {
            #expect(try Data(contentsOf: BundledScenes.directory.appending(path: name)) == Data(contentsOf: Self.sceneFolder.appending(path: name)), "\(name)")
        }
        #expect(BundledScenes.ids == inCheckout.filter(SceneRegistry.isSceneFile).map { String($0.dropLast(".json".count)) })
        #expect(FileManager.default.fileExists(atPath: BundledScenes.schema.path))
    }

    @Test func aSceneOfTheAppExtendsABundledOneAndDiagnosticsNameBoth() throws {
        var registry = SceneRegistry()
        registry.declareProfileModules()
        try registry.addBundledScenes()
        #expect(registry.allDiagnostics.filter { $0.severity == .error }.isEmpty)
        let problems = registry.addScene(
            id: "my-profile", source: #"{ "extends": "user-profile", "variants": [ { "extends": "owner", "params": { "drafts": { "pageSize": 0 } } } ] }"#,
            file: "App/my-profile.json")
        #expect(problems.map(\.file) == ["App/my-profile.json"])
        #expect(registry.definition(of: "user-profile")?.file == "Scenes/user-profile.json")
    }
}
