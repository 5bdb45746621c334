import Foundation
import ProfileDemo
import Scenery
import Testing

/// Manifests are generated from the Swift descriptors, not typed by hand: what a tool reads
/// back is what the modules declare.
@Suite struct GeneratedManifestTests {
    @Test func aGeneratedManifestReadsBackAsTheSameDescriptors() throws {
        let descriptors =
            ProfileModules.descriptors + [
                ModuleDescriptor(
                    type: "Versioned", summary: "A module at version 3.", version: 3,
                    parameters: [
                        ParameterSpec("mode", .string, default: "a", allowedValues: ["a", "b"], summary: "Which."), ParameterSpec("n", .int, range: 1...9),
                    ],
                    events: ["x.done", "x.open"], defaultActions: ["x.done"], ownerOnlyParameter: nil)
            ]
        let text = try ModuleManifest(modules: descriptors).jsonText()
        let file = FileManager.default.temporaryDirectory.appending(path: "generated-\(UUID().uuidString).modules.json")
        defer { try? FileManager.default.removeItem(at: file) }
        try text.write(to: file, atomically: true, encoding: .utf8)
        let read = try ModuleManifest.load(from: file)
        #expect(read.modules == descriptors.sorted { $0.type < $1.type })
        #expect(try read.jsonText() == text, "stable: generating again gives the same file")
    }

    /// The bundled scenes validate against the generated manifest alone, as the build plugin
    /// and `scenery validate` see them in a package that cannot run the modules.
    @Test func theBundledScenesValidateAgainstTheGeneratedManifest() throws {
        let file = try writeManifest(ProfileModules.descriptors)
        defer { try? FileManager.default.removeItem(at: file) }
        let manifest = try ModuleManifest.load(from: file)
        var registry = SceneRegistry()
        registry.declareModules(from: manifest)
        let problems = try registry.loadScenes(in: Paths.scenes)
        #expect(problems.isEmpty, "\(problems.map(\.description))")
        #expect(registry.sceneIDs.count == 5)
    }

    /// The manifest shipped beside the bundled scenes (what the build plugin knows the
    /// profile modules by, in any package) is the modules' own descriptors, generated.
    @Test func theProfileManifestBesideTheBundledScenesIsGeneratedFromTheModules() throws {
        let shipped = try String(contentsOf: Paths.scenes.appending(path: "scenery-profile.modules.json"), encoding: .utf8)
        let generated = try ModuleManifest(modules: ProfileModules.descriptors).jsonText()
        #expect(
            shipped == generated,
            "Scenes/scenery-profile.modules.json is out of date: run `swift run scenery list --manifest --type UserInfoModule --type BlogModule --type BlogPostModule --type DraftModule --type UserListModule > Scenes/scenery-profile.modules.json`"
        )
    }

    func writeManifest(_ descriptors: [ModuleDescriptor]) throws -> URL {
        let file = FileManager.default.temporaryDirectory.appending(path: "profile-\(UUID().uuidString).modules.json")
        try ModuleManifest(modules: descriptors).jsonText().write(to: file, atomically: true, encoding: .utf8)
        return file
    }
}
