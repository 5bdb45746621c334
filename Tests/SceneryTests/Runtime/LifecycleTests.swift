import SceneryTesting
import Testing

@testable import Scenery

@Suite struct LifecycleTests {
    let service = TestService()
    var registry: SceneRegistry { .testing(service, scenes: Fixtures.all) }
    let owner = SceneContext(viewer: "1", arguments: ["user": "1"])

    @Test func onlyVisibleModulesAppear() async throws {
        let scene = try await registry.assemble("profile", for: owner, host: RecordingHost())
        await scene.appear()
        #expect(service.journal.all.filter { $0.hasPrefix("appear") } == ["appear info"])
    }

    @Test func switchingTabsMovesAppearanceAndUpdatesTheSwitch() async throws {
        let host = RecordingHost()
        let scene = try await registry.assemble("profile", for: owner, host: host)
        await scene.appear()
        host.reset()
        let tab = try #require(await scene.takeBaseline().node.action(withID: "sections#secrets"))
        let outcome = await scene.send(tab.event)
        #expect(outcome.route.map(\.description) == ["scene: selected tab secrets"])
        #expect(await scene.selectedTab(of: "sections") == "secrets")
        #expect(await scene.visibleModules == ["info", "secrets"])
        let tree = await scene.render()
        #expect(tree.moduleFrame("secrets") != nil)
        #expect(tree.moduleFrame("items") == nil)
        #expect(host.updates.map(\.node.id) == ["sections"])
    }

    @Test func aTabSwitchArrivesAsPatchesAHostCanApply() async throws {
        let host = RecordingHost()
        let scene = try await registry.assemble("profile", for: owner, host: host)
        let tree = PatchableTree(await scene.takeBaseline().node)
        host.reset()
        await scene.send(try #require(await scene.render().action(withID: "sections#secrets")).event)
        let update = try #require(host.updates.first)
        #expect(!update.patches.isEmpty)
        try tree.apply(update.patches)
        #expect(tree.root == (await scene.render()))
    }

    @Test func leavingMakesVisibleModulesDisappearOnce() async throws {
        let scene = try await registry.assemble("profile", for: owner, host: RecordingHost())
        await scene.appear()
        await scene.leave()
        await scene.leave()
        #expect(service.journal.all.filter { $0.hasPrefix("disappear") } == ["disappear info"])
    }

    @Test func aStateChangeReRendersOnlyThatModule() async throws {
        let host = RecordingHost()
        let scene = try await registry.assemble("profile", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: host)
        host.reset()
        let like = try #require(await scene.takeBaseline().node.action(withID: "items/row.1.like"))
        let outcome = await scene.send(like.event)
        #expect(outcome.result == .handled(by: .module("items")))
        #expect(host.updates.count == 1)
        let update = try #require(host.updates.first)
        #expect(update.module == "items")
        #expect(update.node.id == "items")
        #expect(
            update.node.node(withID: "items/row.1.like")?.kind
                == .button(title: "Liked", event: EventDescriptor("item.like", payload: ["item": 1]), style: .secondary))
    }

    @Test func hiddenModulesDoNotUpdateTheHost() async throws {
        let host = RecordingHost()
        let scene = try await registry.assemble("profile", for: owner, host: host)
        #expect(await scene.render().moduleFrame("secrets") == nil, "secrets sit in the unselected tab")
        host.reset()
        await scene.moduleDidChange(ModuleChange(module: "secrets", nodes: nil))
        #expect(host.updates.isEmpty)
    }
}
