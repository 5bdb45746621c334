import Foundation
import ProfileDemoDomain
import Scenery
import ScenerySiteStore
import SceneryTesting
import Testing

@testable import ProfileDemoStore

/// Writing drafts, on both stores from the same source: saved with a version that counts
/// saves, refused from an older version, deleted, published as a blog in one transaction,
/// each write applied once per action and announced to the owner's subscribers.
@Suite(.timeLimit(.minutes(5))) struct DraftWritingConformanceTests {
    func allDrafts(_ store: any ProfileDatabase, of owner: UserID = "1") async throws -> [Draft] {
        try await store.drafts(of: owner, viewer: owner, page: PageRequest(limit: 100)).items
    }

    @Test(arguments: StoreKind.allCases) func aNewDraftIsSavedAtVersionOneAndListedFirst(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let saved = try await store.save(DraftEdit(title: "Tea at four", body: "The hatter is late."), by: "1")
        #expect(saved.version == 1 && saved.owner == "1" && saved.title == "Tea at four" && saved.body == "The hatter is late.")
        let drafts = try await allDrafts(store)
        #expect(drafts.first == saved, "the most recently edited first")
        #expect(drafts.count == 4)
        #expect(Set(drafts.map(\.id)).count == 4, "a new id")
    }

    @Test(arguments: StoreKind.allCases) func eachSaveOfADraftCountsItsVersionUp(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let first = try await store.save(DraftEdit(title: "One", body: ""), by: "1")
        let second = try await store.save(DraftEdit(draft: first.id, version: 1, title: "Two", body: "more"), by: "1")
        #expect(second.id == first.id && second.version == 2 && second.title == "Two" && second.body == "more")
        #expect(second.editedAt >= first.editedAt)
        #expect(try await allDrafts(store).first(where: { $0.id == first.id }) == second)
    }

    @Test(arguments: StoreKind.allCases) func aSaveFromAnOlderVersionIsRefusedAndChangesNothing(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let opened = try await allDrafts(store).first { $0.title == "Through the looking glass" }!
        // Two tabs opened version 1; the first saves, the second's save is refused.
        let first = try await store.save(DraftEdit(draft: opened.id, version: opened.version, title: "First tab", body: ""), by: "1")
        await #expect(throws: ProfileError.draftChanged(opened.id, from: opened.version, to: first.version)) {
            _ = try await store.save(DraftEdit(draft: opened.id, version: opened.version, title: "Second tab", body: ""), by: "1")
        }
        await #expect(throws: ProfileError.draftChanged(opened.id, from: opened.version, to: first.version)) {
            try await store.deleteDraft(opened.id, version: opened.version, by: "1")
        }
        await #expect(throws: ProfileError.draftChanged(opened.id, from: opened.version, to: first.version)) {
            _ = try await store.publishDraft(opened.id, version: opened.version, by: "1")
        }
        #expect(try await allDrafts(store).first { $0.id == opened.id } == first, "the first tab's text stays, whole")
        #expect(try await store.profile(of: "1", viewer: nil).blogCount == 27, "nothing published")
    }

    @Test(arguments: StoreKind.allCases) func nobodyWritesAnotherOwnersDraft(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let alices = try await allDrafts(store)
        let draft = try #require(alices.first)
        await #expect(throws: ProfileError.draftNotFound(draft.id)) {
            _ = try await store.save(DraftEdit(draft: draft.id, version: draft.version, title: "Bob was here", body: ""), by: "2")
        }
        await #expect(throws: ProfileError.draftNotFound(draft.id)) { try await store.deleteDraft(draft.id, version: draft.version, by: "2") }
        await #expect(throws: ProfileError.draftNotFound(draft.id)) { _ = try await store.publishDraft(draft.id, version: draft.version, by: "2") }
        await #expect(throws: ProfileError.userNotFound("nobody")) { _ = try await store.save(DraftEdit(title: "x", body: ""), by: "nobody") }
        #expect(try await allDrafts(store) == alices, "Alice's drafts are as they were")
        #expect(try await allDrafts(store, of: "2").isEmpty, "and Bob has none")
    }

    @Test(arguments: StoreKind.allCases) func aDeletedDraftIsGone(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let draft = try #require(try await allDrafts(store).first)
        try await store.deleteDraft(draft.id, version: draft.version, by: "1")
        #expect(try await !allDrafts(store).contains { $0.id == draft.id })
        await #expect(throws: ProfileError.draftNotFound(draft.id)) { try await store.deleteDraft(draft.id, version: draft.version, by: "1") }
    }

    @Test(arguments: StoreKind.allCases) func aPublishedDraftBecomesTheOwnersNewestBlogAndLeavesTheDrafts(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let recorder = ChangeRecorder(store, following: [.drafts(of: "1"), .blogs(of: "1"), .profile("1")])
        let draft = try await store.save(DraftEdit(title: "Tea at four", body: "Published at last."), by: "1")
        let id = try await store.publishDraft(draft.id, version: draft.version, by: "1")
        let newest = try #require(try await store.blogs(by: "1", viewer: "2", page: PageRequest(limit: 1)).items.first)
        #expect(newest.id == id && newest.title == "Tea at four" && newest.body == "Published at last." && newest.likes == 0)
        #expect(try await store.blog(id, viewer: nil).author == "1")
        #expect(try await store.profile(of: "1", viewer: nil).blogCount == 28)
        #expect(try await !allDrafts(store).contains { $0.id == draft.id })
        #expect(await recorder.wait(for: .blogs(of: "1")))
        #expect(await recorder.wait(for: .profile("1")))
        #expect(recorder.changes.contains(.drafts(of: "1")))
    }

    @Test(arguments: StoreKind.allCases) func aPublishSentAgainIsAppliedOnce(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let other = try await kind.anotherStore(on: store)
        let draft = try await store.save(DraftEdit(title: "Once", body: ""), by: "1")
        let key = ActionKey.random()
        _ = try await ActionKey.run(as: key) { try await store.publishDraft(draft.id, version: draft.version, by: "1") }
        // The page sent it again, to another server: nothing is published twice.
        await #expect(throws: ProfileError.alreadyApplied(key)) {
            _ = try await ActionKey.run(as: key) { try await other.publishDraft(draft.id, version: draft.version, by: "1") }
        }
        let saveKey = ActionKey.random()
        _ = try await ActionKey.run(as: saveKey) { try await store.save(DraftEdit(title: "Twice?", body: ""), by: "1") }
        await #expect(throws: ProfileError.alreadyApplied(saveKey)) {
            _ = try await ActionKey.run(as: saveKey) { try await other.save(DraftEdit(title: "Twice?", body: ""), by: "1") }
        }
        #expect(try await store.profile(of: "1", viewer: nil).blogCount == 28)
        #expect(try await allDrafts(store).filter { $0.title == "Twice?" }.count == 1)
    }

    @Test(arguments: StoreKind.allCases) func draftVersionsSurviveAnExportAndImport(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let draft = try await store.save(DraftEdit(title: "v1", body: ""), by: "1")
        _ = try await store.save(DraftEdit(draft: draft.id, version: 1, title: "v2", body: ""), by: "1")
        let exported = try await store.exportData()
        #expect(exported.drafts.first { $0.id == draft.id }?.version == 2)
        let copy = try await kind.emptyStore()
        try await copy.importData(exported)
        #expect(try await allDrafts(copy).first { $0.id == draft.id }?.version == 2)
    }
}
