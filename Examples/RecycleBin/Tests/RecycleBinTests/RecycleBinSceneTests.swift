import Foundation
import ProfileDomain
import ProfileStore
import RecycleBin
import Scenery
import SceneryProfile
import SceneryTesting
import SceneryTool
import Testing
import recycle_bin

/// The scene that extends Scenery's profile, the recorded script, and the generated manifest.
@Suite struct RecycleBinSceneTests {
    /// The tool's registry — Scenery's profile modules and scenes plus the recycle bin — over
    /// the demo profile data (in memory) and a bin with `contents`.
    static func registry(bin contents: [UserID: [DeletedBlog]]) throws -> SceneRegistry {
        let store = try SQLiteProfileStore(path: ":memory:")
        let services = ToolServices(profiles: ProfileServices(store), faults: FaultInjector(), databasePath: ":memory:")
        return try (ModuleCatalog.profile + .recycleBin(bin: DemoRecycleBin(contents))).registry(services: services)
    }

    static let march = DeletedBlog(id: 7, title: "Draft of March", deletedAt: Date(timeIntervalSince1970: 1_767_600_000))

    @Test func theSceneFileIsValidAndProvedOwnerOnly() throws {
        let registry = try Self.registry(bin: [:])
        #expect(registry.diagnostics(for: "user-profile-bin").isEmpty)
        #expect(registry.variantNames(of: "user-profile-bin") == ["owner", "default"])
    }

    @Test func theOwnerSeesTheBinAndAnotherViewerNeverDoes() async throws {
        let registry = try Self.registry(bin: ["1": [Self.march]])
        try await SceneScript(
            "user-profile-bin", context: SceneContext(viewer: "1", arguments: ["user": "1"]), registry: registry,
            steps: [
                .expect(.showsModule("bin")),
                .expect(.shows("Draft of March")),
                .tap("bin/row.7.restore", answering: [true]),
                .expect(.hides("Draft of March")),
            ]
        ).run()
        for viewer in ["2", nil] {
            try await SceneScript(
                "user-profile-bin", context: SceneContext(viewer: viewer, arguments: ["user": "1"]), registry: registry,
                steps: [.expect(.lacksModule("bin")), .expect(.hides("Draft of March"))]
            ).run()
        }
    }

    @Test func aSceneThatShowsTheBinToOthersIsRefused() throws {
        var registry = try Self.registry(bin: [:])
        let problems = registry.addScene(
            id: "leaky", source: #"{ "extends": "user-profile-bin", "variants": [ { "extends": "owner", "when": "viewer != null" } ] }"#)
        #expect(problems.contains { $0.severity == .error && $0.message.contains("RecycleBinModule") })
    }

    @Test func theRecordedScriptReplays() async throws {
        // Read from the checkout, so that recording (SCENERY_RECORD=1) writes into it.
        let script = URL(filePath: #filePath).deletingLastPathComponent().appending(path: "Scripts/restore-a-blog.json")
        try await RecordedScript.replay(script) { data in
            let blogs = try JSONDecoder().decode([DeletedBlog].self, from: JSONEncoder().encode(data?["bin"] ?? []))
            return try Self.registry(bin: ["1": blogs])
        }
    }

    @Test func theManifestIsTheOneTheToolGenerates() throws {
        let file = RecycleBinScenes.directory.appending(path: "recycle-bin.modules.json")
        let checkedIn = try String(contentsOf: file, encoding: .utf8)
        #expect(checkedIn == (try ModuleManifest(modules: [RecycleBinModule.descriptor]).jsonText()))
    }
}
