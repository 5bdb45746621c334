import Foundation
import ProfileDemoDomain
import Scenery
import SceneryTesting
import Testing

/// Every bundled scene in every context it has, in Arabic (right to left, from
/// `Scenes/ar.messages.json`: six plural forms) and in the pseudo-locale (`en-XA`), against
/// goldens: what a reader of each sees, title first, laid out as the terminal shows it.
@Suite struct LocaleGoldenTests {
    struct Case: CustomTestStringConvertible, Sendable {
        var locale: String
        var scene: String
        var viewer: String?
        var arguments: [String: String]
        /// The tab selected before rendering, as (switch, tab).
        var tab: (String, String)?

        var golden: String {
            let given = arguments.keys.sorted().map { "\($0)\(arguments[$0]!)" }.joined(separator: "-")
            return "\(locale)/\(scene)-\(viewer.map { "viewer\($0)" } ?? "signed-out")-\(given)\(tab.map { "-\($0.1)" } ?? "").txt"
        }
        var testDescription: String { golden }
    }

    /// The contexts of each bundled scene: the owner, another viewer, and no one signed in.
    static let contexts: [(scene: String, viewer: String?, arguments: [String: String], tab: (String, String)?)] = [
        ("user-profile", "3", ["user": "3"], nil),
        ("user-profile", "3", ["user": "3"], ("sections", "drafts")),
        ("user-profile", "1", ["user": "4"], nil),
        ("user-profile", nil, ["user": "1"], nil),
        ("friend-list", "3", ["user": "1"], nil),
        ("friend-list", "1", ["user": "1"], nil),
        ("user-blogs", nil, ["user": "1"], nil),
        ("user-blogs", "1", ["user": "1"], nil),
        ("follow-list", "1", ["user": "1", "list": "following"], nil),
        ("follow-list", nil, ["user": "1", "list": "followers"], nil),
        ("blog-detail", "1", ["blog": "1"], nil),
        ("blog-detail", nil, ["blog": "2"], nil),
    ]

    static let cases = ["ar", PseudoLocale.identifier].flatMap { locale in
        contexts.map { Case(locale: locale, scene: $0.scene, viewer: $0.viewer, arguments: $0.arguments, tab: $0.tab) }
    }

    @Test(arguments: cases)
    func aBundledSceneInALocaleShowsWhatItsGoldenShows(_ golden: Case) async throws {
        let backend = try Backend()
        var registry = try backend.registry()
        registry.offersPseudoLocale = true
        let context = SceneContext(viewer: golden.viewer, arguments: golden.arguments.mapValues { .string($0) }, locale: golden.locale)
        let scene = try await registry.assemble(golden.scene, for: context, host: RecordingHost())
        if let (tabs, tab) = golden.tab {
            await scene.send(Event(SceneEvents.selectTab, from: NodeID(tabs), payload: ["tabs": .string(tabs), "tab": .string(tab)]))
        }
        let language = registry.language(of: golden.scene, for: golden.locale)
        #expect(language == golden.locale)
        let title = registry.title(of: golden.scene, in: language) ?? golden.scene
        let renderer = TextRenderer(width: 72, isRightToLeft: MessageLocale(language).isRightToLeft)
        let text = "# \(title)\n" + renderer.render(await scene.render())
        await scene.leave()
        try ProfileGolden.check(text, against: golden.golden)
    }

    @Test func arabicCountsTakeEachOfTheirSixPluralForms() async throws {
        let backend = try Backend()
        let registry = try backend.registry()
        let scene = try await registry.assemble(
            "user-profile", for: SceneContext(viewer: "1", arguments: ["user": "4"], locale: "ar"), host: RecordingHost())
        let tree = await scene.render()
        await scene.leave()
        // The catalog's likes message, through the module's own parameter, in every category.
        let file = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appending(path: "Scenes/ar.messages.json")
        let catalog = try JSONDecoder().decode([String: JSONValue].self, from: Data(contentsOf: file))
        let likes = try Message(try #require(catalog["modules"]?["BlogModule"]?["likesFormat"]?.stringValue))
        let arabic = MessageLocale("ar")
        #expect(likes.format(["count": 0], in: arabic) == "لا إعجابات")
        #expect(likes.format(["count": 1], in: arabic) == "إعجاب واحد")
        #expect(likes.format(["count": 2], in: arabic) == "إعجابان")
        #expect(likes.format(["count": 3], in: arabic) == "3 إعجابات")
        #expect(likes.format(["count": 11], in: arabic) == "11 إعجابًا")
        #expect(likes.format(["count": 100], in: arabic) == "100 إعجاب")
        // And the page is in Arabic: no English word of the modules is left.
        let words = tree.allNodes.compactMap { node -> String? in
            if case .text(let text, _) = node.kind { return text }
            if case .button(let title, _, _) = node.kind { return title }
            return nil
        }
        #expect(!words.isEmpty)
        for english in ["Follow", "Unfollow", "Blogs", "Likes", "Friends", "Load more"] {
            #expect(!words.contains { $0.contains(english) }, "\(english) in \(words)")
        }
    }
}
