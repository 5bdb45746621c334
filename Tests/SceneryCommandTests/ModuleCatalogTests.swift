import Foundation
import Scenery
import Testing

@testable import SceneryTool

/// A catalog costs a command only what the command uses (a cold start): its parts are made
/// when first needed, once, and a run in the scene's own language reads no theme or catalog.
@Suite struct ModuleCatalogTests {
    /// How often each part of a catalog was made.
    final class Made: Sendable {
        private let counts = Locked<[String: Int]>([:])
        func note(_ part: String) { counts.withLock { $0[part, default: 0] += 1 } }
        func count(_ part: String) -> Int { counts.withLock { $0[part] ?? 0 } }
    }

    /// A folder with one scene, and the bundled dark theme and Arabic catalog beside it.
    private func sceneFolder() throws -> URL {
        let folder = FileManager.default.temporaryDirectory.appending(path: "catalog-\(UUID().uuidString)", directoryHint: .isDirectory)
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{ "modules": [ { "id": "greeting", "type": "TextModule", "parameters": { "text": "Hello" } } ] }"#.utf8)
            .write(to: folder.appending(path: "hello.json"))
        let bundled = CommandRunner.packageRoot.appending(path: "Scenes")
        for file in ["dark.tokens.json", "ar.messages.json"] {
            try FileManager.default.copyItem(at: bundled.appending(path: file), to: folder.appending(path: file))
        }
        return folder
    }

    private func catalog(_ made: Made, scenes folder: URL) -> ModuleCatalog {
        let part = ModuleCatalog(
            modules: {
                made.note("modules")
                return []
            }(),
            scenes: {
                made.note("scenes")
                return folder
            }()
        ) { _, _ in made.note("registration") }
        return (part + ModuleCatalog(modules: []) { _, _ in })
            .servingPictures(
                from: {
                    made.note("pictures")
                    return folder
                }())
    }

    @Test func aCatalogMakesNoPartUntilACommandAsksForIt() throws {
        let made = Made()
        let catalog = catalog(made, scenes: try sceneFolder())
        #expect(made.count("modules") == 0 && made.count("scenes") == 0 && made.count("pictures") == 0)

        // Running scenes registers module types and lists the scenes, nothing else.
        _ = try catalog.registry(services: ToolServices(store: MemoryToolStore()))
        #expect(made.count("registration") == 1)
        #expect(made.count("scenes") == 1)
        #expect(made.count("modules") == 0)
        #expect(made.count("pictures") == 0)

        // Each part is made once, however often it is asked for.
        _ = catalog.modules
        _ = catalog.modules
        #expect(catalog.pictureFolders.count == 1)
        _ = catalog.sceneIDs
        #expect(made.count("modules") == 1 && made.count("pictures") == 1 && made.count("scenes") == 1)
    }

    @Test func aRegistryReadsOnlyTheResourcesItIsAskedFor() throws {
        let catalog = catalog(Made(), scenes: try sceneFolder())
        let services = ToolServices(store: MemoryToolStore())

        let plain = try catalog.registry(services: services, including: [])
        #expect(plain.sceneIDs == ["hello"])
        #expect(plain.themes.isEmpty)
        #expect(plain.translatedLanguages.isEmpty)

        let themed = try catalog.registry(services: services, including: .themes)
        #expect(themed.theme(named: "dark") != nil)
        #expect(themed.translatedLanguages.isEmpty)

        let everything = try catalog.registry(services: services)
        #expect(everything.theme(named: "dark") != nil)
        #expect(everything.translatedLanguages == ["ar"])
    }
}
