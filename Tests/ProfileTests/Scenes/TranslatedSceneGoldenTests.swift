import Foundation
import ProfileDemoDomain
import Scenery
import SceneryTesting
import Testing

/// The bundled scenes in Chinese, from the catalog (`Scenes/zh-Hans.messages.json`), against
/// goldens recorded from the Chinese copies of the scenes the catalog replaced
/// (`user-profile-zh`, `friend-list-zh`, `user-blogs-zh` before they went): one scene serves
/// both languages, and what a Chinese reader sees did not change.
@Suite struct TranslatedSceneGoldenTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var scene: String
        var viewer: String?
        var user: String
        /// The tab selected before rendering, as switch=tab.
        var tab: (String, String)?

        var golden: String { "zh-Hans/\(scene)-\(viewer.map { "viewer\($0)" } ?? "signed-out")-user\(user)\(tab.map { "-\($0.1)" } ?? "").txt" }
        var testDescription: String { golden }
    }

    static let cases = [
        Case(scene: "user-profile", viewer: "1", user: "4"),
        Case(scene: "user-profile", viewer: "2", user: "1"),
        Case(scene: "user-profile", viewer: nil, user: "1"),
        Case(scene: "user-profile", viewer: "3", user: "3"),
        Case(scene: "user-profile", viewer: "3", user: "3", tab: ("sections", "drafts")),
        Case(scene: "friend-list", viewer: "3", user: "1"),
        Case(scene: "friend-list", viewer: "1", user: "1"),
        Case(scene: "user-blogs", viewer: nil, user: "1"),
    ]

    @Test(arguments: cases)
    func aSceneInChineseShowsWhatItsChineseCopyShowed(_ golden: Case) async throws {
        let backend = try Backend()
        let registry = try backend.registry()
        let scene = try await registry.assemble(
            golden.scene, for: SceneContext(viewer: golden.viewer, arguments: ["user": .string(golden.user)], locale: "zh-Hans"),
            host: RecordingHost())
        if let (tabs, tab) = golden.tab {
            await scene.send(Event(SceneEvents.selectTab, from: NodeID(tabs), payload: ["tabs": .string(tabs), "tab": .string(tab)]))
        }
        let text = TextRenderer(width: 72).render(await scene.render())
        await scene.leave()
        try ProfileGolden.check(text, against: golden.golden)
    }
}

/// The golden files of `Tests/ProfileTests/Golden/` (``GoldenFiles``; `RECORD_GOLDEN=1`
/// writes the current output instead).
enum ProfileGolden {
    static let files = GoldenFiles(directory: URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().appending(path: "Golden"))

    static func check(_ actual: String, against name: String, sourceLocation: SourceLocation = #_sourceLocation) throws {
        if let mismatch = try files.mismatch(actual, against: name) { Issue.record(Comment(rawValue: mismatch), sourceLocation: sourceLocation) }
    }
}
