import Foundation
import ProfileDemo
import ProfileDemoDomain
import ProfileDemoDrafts
import ProfileDemoStore
import Scenery
import SceneryTesting
import Testing

/// The owner's draft editor in the bundled profile scene, on both stores: a draft written,
/// edited, published to every open page of the profile, deleted; two tabs never lose each
/// other's text; nobody else can do any of it.
@Suite(.timeLimit(.minutes(5))) struct DraftEditingTests {
    /// Alice's profile open for `viewer`, on the Drafts tab when it is hers; confirmations
    /// are accepted.
    static func open(_ setup: LiveSetup, _ viewer: String?, locale: String? = nil) async throws -> (scene: SceneInstance, host: RecordingHost) {
        try await setup.open(viewer, tab: viewer == "1" ? "drafts" : nil, confirmer: .acceptingAll, locale: locale)
    }

    /// A tree as indented JSON, to show where two differ.
    static func json(_ tree: ViewNode?) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys]
        return tree.flatMap { try? encoder.encode($0) }.map { String(decoding: $0, as: UTF8.self) } ?? "no tree"
    }

    static func drafts(_ setup: LiveSetup) async throws -> [Draft] {
        try await setup.backend.database.drafts(of: "1", viewer: "1", page: PageRequest(limit: 100)).items
    }

    /// Submits the form `id` of `scene` with `values`, as a host does.
    @discardableResult
    func submit(_ id: NodeID, of scene: SceneInstance, _ values: [String: String]) async throws -> EventOutcome {
        let form = try #require(await scene.form(withID: id), "no form \(id)")
        return await scene.send(try form.submission(of: values, from: id))
    }

    func field(_ id: NodeID, of scene: SceneInstance) async throws -> TextField {
        guard case .textField(let field)? = await scene.render().node(withID: id)?.kind else {
            throw ExpectationFailure("no field \(id)")
        }
        return field
    }

    func formError(_ id: NodeID, of scene: SceneInstance) async throws -> String? {
        guard case .form(let form)? = await scene.render().node(withID: id)?.kind else { throw ExpectationFailure("no form \(id)") }
        return form.error
    }

    @Test(arguments: StoreKind.allCases) func theOwnerWritesADraftThatIsListedAndTheFormEmpties(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let alice = try await Self.open(setup, "1")
        try await submit("drafts/compose", of: alice.scene, ["title": "Tea at four", "body": "The hatter is late again."])
        #expect(await alice.scene.render().texts(of: "drafts/list").dropFirst().first == "Tea at four", "listed first, under the header")
        #expect(try await field("drafts/compose.title", of: alice.scene).value == "")
        let stored = try await Self.drafts(setup).first
        #expect(stored?.title == "Tea at four" && stored?.body == "The hatter is late again." && stored?.version == 1)
    }

    @Test(arguments: StoreKind.allCases) func aDraftWithNothingInItIsRefusedAndNothingIsStored(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let alice = try await Self.open(setup, "1")
        let before = try await Self.drafts(setup)
        // A host that sends it anyway (the form's own rules let empty fields through).
        try await submit("drafts/compose", of: alice.scene, ["title": "  ", "body": "\n"])
        #expect(try await formError("drafts/compose", of: alice.scene) == "Write a title or some text first.")
        #expect(try await field("drafts/compose.title", of: alice.scene).value == "  ", "what was typed is kept")
        #expect(try await Self.drafts(setup) == before)
    }

    @Test(arguments: StoreKind.allCases) func editingADraftSavesItsNextVersionAndClosesTheEditor(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let alice = try await Self.open(setup, "1")
        let draft = try #require(try await Self.drafts(setup).first { $0.title == "Through the looking glass" })
        let edit = try #require(await alice.scene.render().action(withID: "drafts/draft.\(draft.id).edit"))
        await alice.scene.send(edit.event)
        let editor: NodeID = "drafts/draft.\(draft.id).editor"
        #expect(try await field("\(editor).title", of: alice.scene).value == draft.title, "the editor opens with the stored text")
        try await submit(editor, of: alice.scene, ["title": "Through the looking glass, again", "body": "Rewritten."])
        #expect(await alice.scene.render().node(withID: editor) == nil, "the editor closed")
        let saved = try #require(try await Self.drafts(setup).first { $0.id == draft.id })
        #expect(saved.title == "Through the looking glass, again" && saved.body == "Rewritten." && saved.version == draft.version + 1)
        #expect(await alice.scene.render().texts(of: "drafts/draft.\(draft.id).row").contains("Through the looking glass, again"))
    }

    @Test(arguments: StoreKind.allCases) func twoTabsEditingOneDraftTheLaterSaveIsRefusedWithItsTextKept(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let first = try await Self.open(setup, "1")
        let second = try await Self.open(setup, "1")
        let draft = try #require(try await Self.drafts(setup).first)
        for tab in [first, second] {
            await tab.scene.send(try #require(await tab.scene.render().action(withID: "drafts/draft.\(draft.id).edit")).event)
            tab.host.reset()
        }
        let editor: NodeID = "drafts/draft.\(draft.id).editor"
        try await submit(editor, of: first.scene, ["title": "From the first tab", "body": ""])
        // The first tab's save reaches the second tab's page; its editor warns before a save.
        #expect(await second.host.waitForUpdates { $0.contains { $0.module == "drafts" } })
        #expect(try await formError(editor, of: second.scene)?.contains("saved in another tab") == true)
        try await submit(editor, of: second.scene, ["title": "From the second tab", "body": "typed here"])
        let error = try await formError(editor, of: second.scene)
        #expect(error?.contains("changed in another tab or window") == true && error?.contains("Your text is kept here") == true, "\(error ?? "")")
        #expect(try await field("\(editor).title", of: second.scene).value == "From the second tab", "never a silent loss")
        #expect(try await field("\(editor).body", of: second.scene).value == "typed here")
        #expect(try await Self.drafts(setup).first { $0.id == draft.id }?.title == "From the first tab", "the first save stays")
    }

    /// Two tabs save one draft at the same moment, round after round: the losing tab's page
    /// (the host's copy of the tree, patched by every update) ends showing exactly what its
    /// scene holds, the refusal included, never an acknowledged save with no word why.
    @Test func twoTabsSavingAtOnceTheLosingPageShowsWhatItsSceneHolds() async throws {
        let setup = try await LiveSetup(.sqlite)
        let draft = try #require(try await Self.drafts(setup).first)
        let editor: NodeID = "drafts/draft.\(draft.id).editor"
        for round in 0..<30 {
            var tabs: [(scene: SceneInstance, host: MirroringHost)] = []
            for _ in 0..<2 {
                let host = MirroringHost(confirmer: .acceptingAll)
                let scene = try await setup.registry.assemble(
                    "user-profile", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: host)
                await scene.send(Event(SceneEvents.selectTab, from: "sections", payload: ["tabs": "sections", "tab": "drafts"]))
                await scene.appear()
                await host.attach(to: scene)
                await scene.send(try #require(await scene.render().action(withID: "drafts/draft.\(draft.id).edit")).event)
                tabs.append((scene, host))
            }
            let forms = try await [tabs[0].scene.form(withID: editor), tabs[1].scene.form(withID: editor)].map { try #require($0) }
            let left = try forms[0].submission(of: ["title": "Left \(round)", "body": "left"], from: editor)
            let right = try forms[1].submission(of: ["title": "Right \(round)", "body": "right"], from: editor)
            let (leftScene, rightScene) = (tabs[0].scene, tabs[1].scene)
            async let first = leftScene.send(left)
            async let second = rightScene.send(right)
            _ = await (first, second)
            for (index, tab) in tabs.enumerated() {
                // Changes from the other tab arrive through the feed: wait for the page to settle.
                var settled = false
                for _ in 0..<500 {
                    if let tree = tab.host.tree, tree == (await tab.scene.render()) {
                        settled = true
                        break
                    }
                    try await Task.sleep(for: .milliseconds(10))
                }
                #expect(tab.host.problems.isEmpty, "round \(round), tab \(index): \(tab.host.problems)")
                if !settled {
                    let scene = Self.json(await tab.scene.render())
                    Issue.record(
                        "round \(round), tab \(index): the page differs from its scene:\n\(TextDiff.describe(expected: scene, actual: Self.json(tab.host.tree)))"
                    )
                }
            }
            for tab in tabs { await tab.scene.leave() }
        }
    }

    @Test(arguments: StoreKind.allCases) func aPublishedDraftAppearsOnAnotherViewersOpenPageAndLeavesTheDrafts(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let alice = try await Self.open(setup, "1")
        let carol = try await Self.open(setup, "7")
        try await submit("drafts/compose", of: alice.scene, ["title": "Tea at four", "body": "Published at last."])
        let draft = try #require(try await Self.drafts(setup).first { $0.title == "Tea at four" })
        let publish = try #require(await alice.scene.render().action(withID: "drafts/draft.\(draft.id).publish"))
        await alice.scene.send(publish.event)
        #expect(alice.host.confirmations.map(\.title) == ["Publish “Tea at four”?"], "the scene asks first")
        #expect(await carol.host.waitForUpdates { $0.contains { $0.module == "blogs" } }, "the new blog reached Carol's page")
        #expect(await carol.host.waitForUpdates { $0.contains { $0.module == "info" } }, "and her card's blog count")
        let page = await carol.scene.render()
        let newest = try #require(page.texts(of: "blogs/list").dropFirst().first, "the first row, under the header")
        #expect(newest == "Tea at four")
        #expect(page.visibleTexts.contains { $0.contains("Blogs: 28") })
        #expect(!page.visibleTexts.contains("New draft") && page.node(withID: "drafts") == nil, "Carol never sees the editor")
        #expect(try await !Self.drafts(setup).contains { $0.id == draft.id })
        #expect(await !alice.scene.render().texts(of: "drafts/list").contains("Tea at four"))
    }

    @Test(arguments: StoreKind.allCases) func aDeleteAskedAndDeclinedKeepsTheDraft(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let host = RecordingHost(confirmer: ScriptedConfirmer(answers: [false, true]))
        let alice = try await setup.registry.assemble("user-profile", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: host)
        await alice.send(Event(SceneEvents.selectTab, from: "sections", payload: ["tabs": "sections", "tab": "drafts"]))
        await alice.appear()
        let draft = try #require(try await Self.drafts(setup).first)
        let delete = try #require(await alice.render().action(withID: "drafts/draft.\(draft.id).delete"))
        await alice.send(delete.event)
        #expect(try await Self.drafts(setup).contains { $0.id == draft.id }, "declined: kept")
        await alice.send(delete.event)
        #expect(try await !Self.drafts(setup).contains { $0.id == draft.id }, "confirmed: deleted")
        #expect(host.confirmations.count == 2 && host.confirmations[0].title.hasPrefix("Delete “"))
    }

    @Test(arguments: StoreKind.allCases, [Optional("2"), nil])
    func nobodyElseCanSavePublishOrDeleteADraft(kind: StoreKind, viewer: String?) async throws {
        let setup = try await LiveSetup(kind)
        let other = try await Self.open(setup, viewer)
        let before = try await Self.drafts(setup)
        let draft = try #require(before.first)
        let target = DraftEvents.Target(draft: draft.id, version: draft.version, title: draft.title)
        // Forged events, as a host could send them: the drafts module is not on this page,
        // and the owner-only actions are refused by the router before any module.
        let forged = [
            DraftEvents.save.event(DraftEdit(title: "Mallory", body: ""), from: "drafts/compose"),
            DraftEvents.save.event(DraftEdit(draft: draft.id, version: draft.version, title: "Mallory", body: ""), from: "drafts/compose"),
            DraftEvents.publish.event(target, from: "drafts/draft.\(draft.id).publish"),
            DraftEvents.delete.event(target, from: "drafts/draft.\(draft.id).delete"),
            DraftEvents.edit.event(target, from: "drafts/draft.\(draft.id).edit"),
            DraftEvents.publish.event(target, from: "blogs/blog.27"),
        ]
        for event in forged { await other.scene.send(event) }
        #expect(try await Self.drafts(setup) == before)
        #expect(try await setup.backend.database.profile(of: "1", viewer: nil).blogCount == 27)
        #expect(!(await other.scene.render().visibleTexts.contains { $0.contains("Through the looking glass") }))
    }

    @Test func theChineseProfileShowsTheEditorInItsWording() async throws {
        let setup = try await LiveSetup(.sqlite)
        let alice = try await Self.open(setup, "1", locale: "zh-Hans")
        let texts = await alice.scene.render().texts(of: "drafts")
        #expect(texts.contains("写新草稿") && texts.contains("编辑") && texts.contains("发布") && texts.contains("删除"), "\(texts)")
        #expect(try await field("drafts/compose.title", of: alice.scene).label == "标题")
        try await submit("drafts/compose", of: alice.scene, ["title": "", "body": ""])
        #expect(try await formError("drafts/compose", of: alice.scene) == "请先写标题或正文。")
    }
}
