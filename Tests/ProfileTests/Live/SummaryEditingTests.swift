import Foundation
import ProfileDemo
import ProfileDemoDomain
import ProfileDemoStore
import Scenery
import SceneryTesting
import Testing

/// The owner edits their summary inline, on both stores: saved once, shown on every open
/// page of the profile; too long is refused with the text kept; nobody else can.
@Suite(.timeLimit(.minutes(5))) struct SummaryEditingTests {
    static func summary(_ setup: LiveSetup) async throws -> String { try await setup.backend.database.profile(of: "1", viewer: nil).user.summary }

    func openEditor(of scene: SceneInstance) async throws {
        await scene.send(try #require(await scene.render().action(withID: "info/summary.edit"), "the owner has an edit button").event)
    }

    func submit(_ text: String, on scene: SceneInstance) async throws {
        let form = try #require(await scene.form(withID: "info/summary.editor"))
        await scene.send(try form.submission(of: ["summary": text], from: "info/summary.editor"))
    }

    @Test(arguments: StoreKind.allCases) func theOwnersNewSummaryIsSavedAndReachesAnotherViewersOpenPage(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let alice = try await setup.open("1", confirmer: .acceptingAll)
        let carol = try await setup.open("7", confirmer: .acceptingAll)
        #expect(await carol.scene.render().action(withID: "info/summary.edit") == nil, "no edit button for anyone else")
        try await openEditor(of: alice.scene)
        try await submit("Tea, clocks, and the occasional rabbit.", on: alice.scene)
        #expect(try await Self.summary(setup) == "Tea, clocks, and the occasional rabbit.")
        let own = await alice.scene.render()
        #expect(own.node(withID: "info/summary.editor") == nil, "the editor closed")
        #expect(own.texts(of: "info/summary").contains("Tea, clocks, and the occasional rabbit."))
        #expect(await carol.host.waitForUpdates { $0.contains { $0.module == "info" } })
        #expect(await carol.scene.render().texts(of: "info/summary").contains("Tea, clocks, and the occasional rabbit."))
    }

    @Test(arguments: StoreKind.allCases) func aSummaryLongerThanAllowedIsRefusedWithTheTextKept(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let alice = try await setup.open("1", confirmer: .acceptingAll)
        let before = try await Self.summary(setup)
        try await openEditor(of: alice.scene)
        let long = String(repeating: "tea ", count: 126)
        // A host that sends it anyway: the module checks the rule again.
        await alice.scene.send(UserEvents.saveSummary.event(.init(summary: long), from: "info/summary.editor"))
        guard case .textField(let field)? = await alice.scene.render().node(withID: "info/summary.editor.text")?.kind else {
            Issue.record("the editor closed")
            return
        }
        #expect(field.value == long && field.error == "Summary is at most 500 characters; it has 504.")
        #expect(try await Self.summary(setup) == before)
        await #expect(throws: ProfileError.self) { try await setup.backend.database.setSummary(long, of: "1", by: "1") }
    }

    /// One letter carrying 20,000 marks is one character: a limit of characters alone let
    /// 40,001 bytes through the 500-letter limit, to be shown to every viewer.
    @Test(arguments: StoreKind.allCases) func aSummaryOfStackedMarksIsRefusedByTheModuleAndTheStore(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let alice = try await setup.open("1", confirmer: .acceptingAll)
        let before = try await Self.summary(setup)
        try await openEditor(of: alice.scene)
        let stacked = "Z" + String(repeating: "\u{0301}", count: 20_000)
        await alice.scene.send(UserEvents.saveSummary.event(.init(summary: stacked), from: "info/summary.editor"))
        guard case .textField(let field)? = await alice.scene.render().node(withID: "info/summary.editor.text")?.kind else {
            Issue.record("the editor closed")
            return
        }
        #expect(field.error?.contains("at most 30 are taken") == true, "\(field.error ?? "no error")")
        #expect(try await Self.summary(setup) == before)
        // Under the character limit, over the bytes: refused where it is stored too.
        let heavy = String(repeating: "e" + String(repeating: "\u{0301}", count: 30), count: 400)
        for text in [stacked, heavy] {
            await #expect(throws: ProfileError.self) { try await setup.backend.database.setSummary(text, of: "1", by: "1") }
        }
        #expect(try await Self.summary(setup) == before)
    }

    @Test(arguments: StoreKind.allCases, [Optional("2"), nil])
    func nobodyElseCanChangeTheSummary(kind: StoreKind, viewer: String?) async throws {
        let setup = try await LiveSetup(kind)
        let other = try await setup.open(viewer, confirmer: .acceptingAll)
        let before = try await Self.summary(setup)
        await other.scene.send(UserEvents.editSummary.event(.init(user: "1"), from: "info/summary.edit"))
        #expect(await other.scene.render().node(withID: "info/summary.editor") == nil)
        await other.scene.send(UserEvents.saveSummary.event(.init(summary: "Mallory was here"), from: "info/summary.editor"))
        #expect(try await Self.summary(setup) == before)
        await #expect(throws: ProfileError.notPermitted("Only '1' can change their own summary.")) {
            try await setup.backend.database.setSummary("Mallory was here", of: "1", by: "2")
        }
    }
}
