import Foundation
import Scenery
import SceneryTesting
import Testing

/// `SceneInstance.inspect(_:)`: the module that shows a node, where its scene file placed
/// it, and why the page is what it is, for any viewer's page.
@Suite struct InspectionTests {
    let registry: SceneRegistry

    init() throws { registry = try Backend().registry() }

    /// Where `text` starts in the bundled scene file, as `line:column`.
    func position(of text: String, in file: String) throws -> SourcePosition {
        let source = try String(contentsOf: Backend.scenesDirectory.appending(path: file), encoding: .utf8)
        let lines = source.components(separatedBy: "\n")
        let line = try #require(lines.firstIndex { $0.contains(text) })
        let column = try #require(lines[line].range(of: text)).lowerBound.utf16Offset(in: lines[line])
        return SourcePosition(line: line + 1, column: column + 1)
    }

    @Test func theOwnersDraftControlIsTracedToTheOwnerVariantsLineOfTheSceneFile() async throws {
        let scene = try await registry.assemble("user-profile", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: RecordingHost())
        let inspection = try #require(await scene.inspect("drafts/compose"))
        #expect(inspection.module == "drafts")
        #expect(inspection.moduleType == "DraftModule")
        #expect(inspection.file.hasSuffix("Scenes/user-profile.json"), "\(inspection.file)")
        #expect(inspection.position == (try position(of: #"{ "id": "drafts", "type": "DraftModule""#, in: "user-profile.json")))
        #expect(inspection.placement == "\(inspection.file):\(try #require(inspection.position))")
        #expect(inspection.variant == "owner")
        #expect(inspection.variantCondition == "viewer == user" && inspection.variantsPassedOver.isEmpty)
        #expect(inspection.arms.isEmpty, "the owner takes part in no experiment of the profile")
        #expect(inspection.status == .ready)
        #expect(inspection.viewer == "1")
        #expect(inspection.arguments == ["user": "1"])
        // The module's state as it says it: her drafts' list, nothing being edited.
        #expect(inspection.parameters["owner"] == "$user", "as the scene file wrote it")
        #expect(inspection.state["status"] == "loaded" && inspection.state["editing"] == .null, "\(inspection.state)")
        #expect(inspection.state["rows"]?.intValue ?? 0 > 0, "\(inspection.state)")
        #expect(inspection.description.contains("state: composing=false editing=null following="), "\(inspection.description)")
        await scene.leave()
    }

    @Test func anotherViewersPageNamesItsArmAndHasNoDraftsToInspect() async throws {
        let scene = try await registry.assemble("user-profile", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: RecordingHost())
        #expect(await scene.inspect("drafts/compose") == nil, "Bob's page has no drafts module")
        let blogs = try #require(await scene.inspect("blogs/blog.26.like"))
        #expect(blogs.module == "blogs")
        #expect(blogs.position == (try position(of: #"{ "id": "blogs", "type": "BlogModule""#, in: "user-profile.json")))
        #expect(blogs.variant != "owner")
        // Why Bob's page has no drafts: the owner's variant did not hold (its reason, not its drafts).
        #expect(blogs.variantsPassedOver.contains(.init(name: "owner", condition: "viewer == user")), "\(blogs.variantsPassedOver)")
        #expect(blogs.description.contains("passed over: 'owner' (when viewer == user)"), "\(blogs.description)")
        let arm = try #require(scene.assignments.first { $0.experiment == "friends-layout" }?.arm)
        #expect(blogs.arms == ["friends-layout": arm])
        #expect(blogs.description.contains("arms: friends-layout = \(arm)"), "\(blogs.description)")
        #expect(await scene.inspect("blogs") == blogs, "a module's id alone inspects the module")
        await scene.leave()
    }

    /// The rule that decided an event, among two `on` the same event: the first whose `when`
    /// holds, named with its scene file line.
    @Test func anEventsOutcomeNamesTheRuleThatDecidedAndWhereItIsWritten() async throws {
        let scene = try await registry.assemble("user-profile", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: RecordingHost())
        let someoneElse = await scene.send(Event("user.open", from: "friends/user.3", payload: ["user": "3"]))
        let sameUser = await scene.send(Event("user.open", from: "friends/user.1", payload: ["user": "1"]))
        let passed = await scene.send(Event("user.nothing", from: "info/follow"))
        let first = try position(of: #"{ "on": "user.open", "when""#, in: "user-profile.json")
        let second = try position(of: #"{ "on": "user.open", "navigate": { "scene": "follow-list""#, in: "user-profile.json")
        #expect(someoneElse.rule?.position == first && someoneElse.rule?.on == "user.open", "\(String(describing: someoneElse.rule))")
        #expect(sameUser.rule?.position == second, "the first rule's `when` did not hold: \(String(describing: sameUser.rule))")
        #expect(sameUser.rule?.file.hasSuffix("Scenes/user-profile.json") == true)
        #expect(sameUser.rule?.description.hasSuffix("user-profile.json:\(second)") == true)
        #expect(passed.rule == nil, "no rule matched")
        await scene.leave()
    }

    @Test func aModuleAChildSceneInheritsIsPlacedInItsParentsFile() async throws {
        var registry = registry
        let problems = registry.addScene(
            id: "child", source: #"{ "extends": "user-profile", "title": "Child" }"#)
        #expect(problems.isEmpty, "\(problems)")
        let scene = try await registry.assemble("child", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: RecordingHost())
        let info = try #require(await scene.inspect("info/follow"))
        #expect(info.file.hasSuffix("Scenes/user-profile.json"), "the parent placed it: \(info.file)")
        #expect(info.position == (try position(of: #"{ "id": "info", "type": "UserInfoModule""#, in: "user-profile.json")))
        #expect(info.scene == "child")
        await scene.leave()
    }
}
