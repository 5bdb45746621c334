import ProfileDemoDomain
import Scenery
import SceneryTesting
import Testing

/// A child scene builds on a named variant of its parent (`"extends": "owner"` in a
/// variant): it adds modules and tabs and changes parameters without copying the variant,
/// and validation still proves privacy on what results.
@Suite struct VariantExtensionTests {
    let backend: Backend
    let registry: SceneRegistry

    init() throws {
        backend = try Backend()
        registry = try backend.registry()
    }

    /// The tabs of a scene's first tab switch, for a viewer of user 1's profile.
    func tabs(of sceneID: String, in registry: SceneRegistry, viewer: String?, locale: String? = nil) async throws -> [String] {
        let scene = try await registry.assemble(
            sceneID, for: SceneContext(viewer: viewer, arguments: ["user": "1"], locale: locale), host: RecordingHost())
        guard case .tabs(let tabs)? = await scene.render().node(withID: "sections")?.kind else { return [] }
        return tabs.tabs.map(\.title)
    }

    @Test func aChildAddsATabToTheOwnersVariantWithoutCopyingIt() async throws {
        var registry = registry
        let problems = registry.addScene(
            id: "profile-more",
            source: """
                {
                  "extends": "user-profile",
                  "variants": [
                    { "extends": "owner",
                      "add": [ { "id": "bob", "type": "BlogModule", "params": { "author": "2", "header": "Bob's blogs" } } ],
                      "params": { "drafts": { "header": "Unsent" } },
                      "tabs": { "sections": { "add": [ { "id": "bob", "title": "Bob", "modules": ["bob"] } ] } } }
                  ]
                }
                """)
        #expect(problems.isEmpty, "\(problems)")
        #expect(try await tabs(of: "profile-more", in: registry, viewer: "1") == ["Blogs", "Drafts", "Bob"])
        #expect(try await tabs(of: "profile-more", in: registry, viewer: "2") == [], "the owner's variant only")
        #expect(registry.variantNames(of: "profile-more") == ["owner", "default"])
        let owner = try await registry.assemble("profile-more", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: RecordingHost())
        await owner.send(Event(SceneEvents.selectTab, from: "sections", payload: ["tabs": "sections", "tab": "drafts"]))
        #expect(await owner.render().visibleTexts.contains("Unsent"), "the drafts' header changed, nothing else copied")
        // The parent is unchanged.
        #expect(try await tabs(of: "user-profile", in: registry, viewer: "1") == ["Blogs", "Drafts"])
    }

    @Test func theProfileInChineseChangesWordingAndTabTitlesOnly() async throws {
        #expect(try await tabs(of: "user-profile", in: registry, viewer: "1", locale: "zh-Hans") == ["博客", "草稿"])
        #expect(try await tabs(of: "user-profile", in: registry, viewer: "2", locale: "zh-Hans") == [])
        let owner = try await registry.assemble(
            "user-profile", for: SceneContext(viewer: "1", arguments: ["user": "1"], locale: "zh-Hans"), host: RecordingHost())
        await owner.send(Event(SceneEvents.selectTab, from: "sections", payload: ["tabs": "sections", "tab": "drafts"]))
        let texts = await owner.render().visibleTexts
        #expect(texts.contains("草稿箱") && texts.contains("作品: 27"))
    }

    @Test func privacyIsProvedOnTheMergedVariant() {
        var registry = registry
        // The drafts would reach any signed-in viewer: the child widened the owner's condition.
        let problems = registry.addScene(
            id: "leaky", source: #"{ "extends": "user-profile", "variants": [ { "extends": "owner", "when": "viewer != null" } ] }"#)
        let leak = problems.first { $0.severity == .error }
        #expect(
            leak?.message.hasPrefix("DraftModule 'drafts' shows private data of '$user' but is in the variant 'owner'") == true,
            "\(problems.map(\.description))")
        #expect(leak?.file == "leaky.json", "reported where the condition was widened")
    }

    struct BadChange: Sendable, CustomTestStringConvertible {
        var name: String
        var variant: String
        var message: String
        var column: Int
        var testDescription: String { name }
    }

    static let badChanges = [
        BadChange(
            name: "an unknown variant", variant: #"{ "extends": "ownr" }"#,
            message: "The variant extends 'ownr', which 'user-profile' does not have (did you mean 'owner'?); name one of its variants: owner.",
            column: 57),
        BadChange(
            name: "parameters of a module that is not there", variant: #"{ "extends": "owner", "params": { "draft": { "header": "x" } } }"#,
            message: "Cannot change the parameters of 'draft': no such module here (did you mean 'drafts'?).", column: 87),
        BadChange(
            name: "a parameter value of the wrong type", variant: #"{ "extends": "owner", "params": { "drafts": { "pageSize": "ten" } } }"#,
            message: "'pageSize' of DraftModule must be an integer, not a string.", column: 102),
        BadChange(
            name: "a tab switch that is not there", variant: #"{ "extends": "owner", "tabs": { "section": { "titles": { "blogs": "B" } } } }"#,
            message: "There is no tab switch 'section' to change (did you mean 'sections'?); the layout's tab switches: sections.", column: 87),
        BadChange(
            name: "a tab that is not there", variant: #"{ "extends": "owner", "tabs": { "sections": { "titles": { "blog": "B" } } } }"#,
            message: "The tab switch 'sections' has no tab 'blog' to retitle (did you mean 'blogs'?).", column: 110),
        BadChange(
            name: "a tab id taken",
            variant: #"{ "extends": "owner", "tabs": { "sections": { "add": [ { "id": "blogs", "title": "B", "modules": [] } ] } } }"#,
            message: "The tab switch 'sections' already has a tab 'blogs'; give the new tab another id.", column: 107),
        BadChange(
            name: "a tab showing a module that is not there",
            variant: #"{ "extends": "owner", "tabs": { "sections": { "add": [ { "id": "bin", "title": "Bin", "modules": ["bin"] } ] } } }"#,
            message: "The tab 'bin' shows 'bin', which is not a module of this variant; add it first.", column: 142),
    ]

    @Test(arguments: badChanges)
    func aBadChangeIsReportedWhereItIsWritten(_ change: BadChange) {
        var registry = registry
        let source = #"{ "extends": "user-profile", "variants": [ "# + change.variant + " ] }"
        let problems = registry.addScene(id: "child", source: source)
        let problem = problems.first { $0.severity == .error }
        #expect(problem?.message == change.message, "\(problems.map(\.description))")
        #expect(problem?.file == "child.json")
        #expect(problem?.location?.line == 1)
        #expect(problem?.location?.column == change.column, "\(problem?.description ?? "")")
    }
}
