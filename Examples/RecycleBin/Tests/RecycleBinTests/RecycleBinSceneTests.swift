import Foundation
import ProfileDemo
import ProfileDemoDomain
import ProfileDemoStore
import ProfileDemoTool
import RecycleBin
import Scenery
import SceneryTesting
import SceneryTool
import Testing
import recycle_bin

/// The package's `user-profile`, which adds its modules to Scenery's under the same id, the
/// recorded script, and the generated manifest.
@Suite struct RecycleBinSceneTests {
    /// The tool's registry — Scenery's profile modules and scenes plus the package's — over
    /// the demo profile data (in memory), a bin with `contents` and an album with `photos`.
    static func registry(bin contents: [UserID: [DeletedBlog]], photos: [UserID: [Photo]] = [:]) throws -> SceneRegistry {
        let store = try SQLiteProfileStore(path: ":memory:")
        let services = ToolServices(store: ProfileToolStore(store))
        let catalog = ModuleCatalog.profile + .recycleBin(bin: DemoRecycleBin(contents), album: DemoPhotoAlbum(photos))
        return try catalog.registry(services: services)
    }

    static let march = DeletedBlog(id: 7, title: "Draft of March", deletedAt: Date(timeIntervalSince1970: 1_767_600_000))
    static let hole = Photo(id: 31, caption: "The rabbit hole, from above")

    @Test func theSceneFileIsValidAndReplacesTheBundledProfile() throws {
        let registry = try Self.registry(bin: [:])
        #expect(registry.diagnostics(for: "user-profile").isEmpty)
        #expect(registry.variantNames(of: "user-profile") == ["owner", "default"])
        #expect(registry.sceneIDs.filter { $0.hasPrefix("user-profile") } == ["user-profile"])
    }

    /// The album is placed after the friends, in the owner's layout and in the default one.
    static let albumFollowsTheFriends = SceneScript.Step.check("the album follows the friends") { scene, _ in
        let order = await scene.render().allNodes.compactMap { node -> ModuleID? in
            if case .module(let frame) = node.kind { frame.module } else { nil }
        }
        return order.firstIndex(of: "album") == order.firstIndex(of: "friends").map { $0 + 1 } ? nil : "the order is \(order)."
    }

    @Test func everyViewerSeesTheAlbumAfterTheFriendsAndOnlyTheOwnerRemovesAPhoto() async throws {
        let registry = try Self.registry(bin: [:], photos: ["1": [Self.hole]])
        try await SceneScript(
            "user-profile", context: SceneContext(viewer: "1", arguments: ["user": "1"]), registry: registry,
            steps: [
                .expect(.showsModule("album")),
                Self.albumFollowsTheFriends,
                .tap("album/photo.31.remove", answering: [false]),
                .expectRoute(["module album: passed", "scene: asked 'Remove “The rabbit hole, from above” from your album?', declined"]),
                .expect(.shows("The rabbit hole, from above")),
                .tap("album/photo.31.remove", answering: [true]),
                .expect(.hides("The rabbit hole, from above")),
            ]
        ).run()
        let forged = PhotoAlbumModule.remove.event(.init(photo: 31, caption: "The rabbit hole, from above"), from: "album/photo.31.remove")
        for viewer in ["2", nil] {
            let registry = try Self.registry(bin: [:], photos: ["1": [Self.hole]])
            try await SceneScript(
                "user-profile", context: SceneContext(viewer: viewer, arguments: ["user": "1"]), registry: registry,
                steps: [
                    .expect(.showsModule("album")),
                    Self.albumFollowsTheFriends,
                    .expect(.shows("The rabbit hole, from above")),
                    .expect(.lacksNode("album/photo.31.remove")),
                    // Refused before anything is asked: no question reaches someone else.
                    .send(forged),
                    .expectResult(.cancelled(by: .module("album"))),
                    .expectRoute(["module album: refused: only the user named by 'owner' may take this action"]),
                    .expect(.shows("The rabbit hole, from above")),
                ]
            ).run()
        }
    }

    @Test func theOwnerSeesTheBinAndAnotherViewerNeverDoes() async throws {
        let registry = try Self.registry(bin: ["1": [Self.march]])
        try await SceneScript(
            "user-profile", context: SceneContext(viewer: "1", arguments: ["user": "1"]), registry: registry,
            steps: [
                .expect(.showsModule("bin")),
                .expect(.shows("Draft of March")),
                .tap("bin/row.7.restore", answering: [true]),
                .expect(.hides("Draft of March")),
            ]
        ).run()
        for viewer in ["2", nil] {
            try await SceneScript(
                "user-profile", context: SceneContext(viewer: viewer, arguments: ["user": "1"]), registry: registry,
                steps: [.expect(.lacksModule("bin")), .expect(.hides("Draft of March"))]
            ).run()
        }
    }

    @Test func aSceneThatShowsTheBinToOthersIsRefused() throws {
        var registry = try Self.registry(bin: [:])
        let problems = registry.addScene(
            id: "leaky", source: #"{ "extends": "user-profile", "variants": [ { "extends": "owner", "when": "viewer != null" } ] }"#)
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
        #expect(checkedIn == (try ModuleManifest(modules: [RecycleBinModule.descriptor, PhotoAlbumModule.descriptor]).jsonText()))
    }
}
