import Foundation
import ProfileDemoDomain
import RecycleBin
import Scenery
import SceneryFaults
import SceneryTesting
import Testing

/// The module alone, through the exhaustive harness: every update and every event it sends
/// up is accounted for.
@Suite struct RecycleBinModuleTests {
    let march = DeletedBlog(id: 7, title: "Draft of March", deletedAt: Date(timeIntervalSince1970: 1_767_600_000))
    let april = DeletedBlog(id: 8, title: "Draft of April", deletedAt: Date(timeIntervalSince1970: 1_767_000_000))

    func harness(viewer: String?, bin: any RecycleBinService) throws -> ModuleHarness<RecycleBinModule> {
        try ModuleHarness(RecycleBinModule.self, parameters: ["owner": "1"], viewer: viewer, id: "bin") {
            try RecycleBinModule(parameters: $0, context: $1, bin: bin)
        }
    }

    @Test func theOwnerRestoresABlogAndItLeavesTheBin() async throws {
        let bin = DemoRecycleBin(["1": [march, april]])
        let harness = try harness(viewer: "1", bin: bin)
        try await harness.load { tree in
            try RenderExpectation.shows("Draft of March").verify(tree)
            try RenderExpectation.shows("Deleted 2026-01-05 08:00").verify(tree)
            try RenderExpectation.hasNode("row.8.restore").verify(tree)
        }
        try await harness.tap("row.7.restore") { tree in
            try RenderExpectation.hides("Draft of March").verify(tree)
            try RenderExpectation.shows("Draft of April").verify(tree)
        }
        try await harness.receiveEvent("bin.restore") { event in
            #expect(event.payload["blog"] == 7)
            #expect(event.payload["title"] == "Draft of March")
        }
        try await harness.receiveUpdate { tree in try RenderExpectation.hides("Draft of March").verify(tree) }
        try harness.finish()
        #expect(try await bin.deletedBlogs(of: "1", viewer: "1") == [april])
    }

    /// The sample of the Testing guide, word for word (DocumentationSampleTests checks it stands here).
    @Test func theTestingGuideSampleRuns() async throws {
        let bin = DemoRecycleBin(["1": [march, april]])
        let harness = try ModuleHarness(RecycleBinModule.self, parameters: ["owner": "1"], viewer: "1") {
            try RecycleBinModule(parameters: $0, context: $1, bin: bin)
        }
        try await harness.load { try RenderExpectation.shows("Draft of March").verify($0) }
        try await harness.tap("row.7.restore") { try RenderExpectation.hides("Draft of March").verify($0) }
        try await harness.receiveEvent("bin.restore") { #expect($0.payload["blog"] == 7) }
        try await harness.receiveUpdate { _ in }  // the module's setNeedsRender() after restoring
        try harness.finish()  // fails on anything left unaccounted for
    }

    @Test func aRestoreTheSceneStopsChangesNothing() async throws {
        let bin = DemoRecycleBin(["1": [march]])
        let harness = try harness(viewer: "1", bin: bin)
        try await harness.load { try RenderExpectation.shows("Draft of March").verify($0) }
        try await harness.tap("row.7.restore", letThrough: false)
        try await harness.receiveEvent("bin.restore")
        try harness.finish()
        #expect(try await bin.deletedBlogs(of: "1", viewer: "1") == [march])
    }

    @Test func aForgedRestoreFromAnotherViewerIsRefusedBeforeTheModuleActs() async throws {
        let bin = DemoRecycleBin(["1": [march]])
        let harness = try harness(viewer: "2", bin: bin)
        let forged = RecycleBinModule.restore.event(.init(blog: 7, title: "Draft of March"), from: "row.7.restore")
        try await harness.send(forged) { tree in try RenderExpectation.hides("Draft of March").verify(tree) }
        try await harness.receiveEvent("bin.restore")
        try await harness.receiveRefusal { #expect($0 == "only the user named by 'owner' may take this action") }
        try harness.finish()
        #expect(try await bin.deletedBlogs(of: "1", viewer: "1") == [march], "nothing restored")
    }

    @Test func anotherViewerNeverSeesTheBin() async throws {
        let harness = try harness(viewer: "2", bin: DemoRecycleBin(["1": [march]]))
        await #expect(throws: ProfileError.notPermitted(RecycleBinModule.privacyMessage)) { try await harness.load() }
        let tree = await harness.render()
        try RenderExpectation.hides("Draft of March").verify(tree)
        try RenderExpectation.shows(RecycleBinModule.privacyMessage).verify(tree)
    }

    @Test func aFailedRestoreKeepsTheBlogAndSaysWhy() async throws {
        let injector = FaultInjector(FaultPlan([.fail(.recycleBin, operations: [.write])]))
        let harness = try harness(viewer: "1", bin: FaultyRecycleBin(base: DemoRecycleBin(["1": [march]]), injector: injector))
        try await harness.load { try RenderExpectation.shows("Draft of March").verify($0) }
        try await harness.tap("row.7.restore") { tree in
            try RenderExpectation.shows("Draft of March").verify(tree)
            try RenderExpectation.shows("Couldn't restore: The bin service is unavailable (injected fault).").verify(tree)
        }
        try await harness.receiveEvent("bin.restore")
        try await harness.receiveUpdate { _ in }
        // The action failed: the route says so, and the host never hears of the restore.
        try await harness.receiveFailure { #expect($0 == "The bin service is unavailable (injected fault).") }
        try harness.finish()
    }

    @Test func theHarnessFailsOnAnUpdateTheTestDidNotTake() async throws {
        let harness = try harness(viewer: "1", bin: DemoRecycleBin(["1": [march, april]]))
        try await harness.load { _ in }
        try await harness.tap("row.7.restore") { _ in }
        // The event sent up and the update are not taken: finish() names both.
        let failure = #expect(throws: ExpectationFailure.self) { try harness.finish() }
        #expect(failure?.message.contains("the event 'bin.restore'") == true)
        #expect(failure?.message.contains("an update of the tree") == true)
    }

    @Test func theHarnessFailsOnAChangedTreeTheTestDidNotDescribe() async throws {
        let harness = try harness(viewer: "1", bin: DemoRecycleBin(["1": [march]]))
        let failure = await #expect(throws: ExpectationFailure.self) { try await harness.load() }
        #expect(failure?.message.contains("the module's tree changed") == true)
    }
}
