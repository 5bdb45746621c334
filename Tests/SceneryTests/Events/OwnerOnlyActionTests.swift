import Scenery
import SceneryTesting
import Synchronization
import Testing

/// An owner-only action on a module everyone sees: the router refuses it to anyone but the
/// user its parameter names, before the module or the host sees it, whatever the scene's
/// rules say — so the module needs no check of its own and validation can rely on it.
@Suite struct OwnerOnlyActionTests {
    struct Delete: Codable, Sendable { var blog: Int }
    static let delete = EventKind<Delete>("blog.delete")

    /// A blog list with a Delete button on each row (for everyone: the button is only a
    /// request; the router decides).
    actor BlogsModule: Module {
        static let descriptor = ModuleDescriptor(
            type: "Blogs", summary: "Blogs with Delete.", parameters: [ParameterSpec("author", .userID)], sends: [delete],
            performs: [delete], ownerOnlyActions: [delete.name: "author"])
        let performed: Performed
        init(performed: Performed) { self.performed = performed }
        func load(_ request: LoadRequest) async throws {}
        func render() -> ViewNode { .button("delete", title: "Delete", sends: delete.descriptor(Delete(blog: 7))) }
        func perform(_ event: Event) async throws {
            guard let delete = try? OwnerOnlyActionTests.delete.payload(of: event) else { return }
            performed.blogs.withLock { $0.append(delete.blog) }
        }
    }

    final class Performed: Sendable {
        let blogs = Locked<[Int]>([])
        var all: [Int] { blogs.withLock { $0 } }
    }

    func registry(_ performed: Performed, rules: String = "[]", author: String = #""$user""#) -> SceneRegistry {
        var registry = SceneRegistry()
        registry.register(BlogsModule.self) { _, _ in BlogsModule(performed: performed) }
        registry.addScene(
            id: "blogs",
            source:
                #"{ "parameters": { "user": "userID" }, "modules": [ { "id": "blogs", "type": "Blogs", "params": { "author": \#(author) } } ], "events": \#(rules) }"#
        )
        return registry
    }

    func delete(as viewer: String?, in registry: SceneRegistry) async throws -> (EventOutcome, RecordingHost) {
        let host = RecordingHost()
        let scene = try await registry.assemble("blogs", for: SceneContext(viewer: viewer, arguments: ["user": "1"]), host: host)
        let action = try #require(await scene.render().action(withID: "blogs/delete"))
        return (await scene.send(action.event), host)
    }

    @Test func theOwnerTakesTheAction() async throws {
        let performed = Performed()
        let (outcome, host) = try await delete(as: "1", in: registry(performed))
        #expect(outcome.route.map(\.description) == ["module blogs: passed", "scene: passed", "module blogs: performed", "host: received"])
        #expect(performed.all == [7])
        #expect(host.receivedEvents.map(\.name) == ["blog.delete"])
    }

    @Test(arguments: ["2", nil] as [String?])
    func anyoneElseIsRefusedBeforeTheModuleOrHostSeesIt(viewer: String?) async throws {
        let performed = Performed()
        let (outcome, host) = try await delete(as: viewer, in: registry(performed))
        #expect(outcome.route.map(\.description) == ["module blogs: refused: only the user named by 'author' may take this action"])
        #expect(outcome.result == .cancelled(by: .module("blogs")))
        #expect(performed.all.isEmpty)
        #expect(host.receivedEvents.isEmpty)
    }

    /// A forged delete used to be asked about ("Delete?") before it was refused: the
    /// refusal is now the first and only answer, and the owner is still asked.
    @Test func noSceneRuleCanLetItThroughOrAskAboutItForSomeoneElse() async throws {
        let performed = Performed()
        let rules = #"[ { "on": "blog.delete", "steps": [ { "confirm": { "title": "Delete?" } }, "continue" ] } ]"#
        let host = RecordingHost(confirmer: ScriptedConfirmer(answers: [true]))
        let registry = registry(performed, rules: rules)
        let scene = try await registry.assemble("blogs", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: host)
        let action = try #require(await scene.render().action(withID: "blogs/delete"))
        let outcome = await scene.send(action.event)
        #expect(outcome.route.map(\.action) == [.refused("only the user named by 'author' may take this action")])
        #expect(host.confirmations.isEmpty, "nobody but the owner is asked about it")
        #expect(performed.all.isEmpty)
        #expect(host.receivedEvents.isEmpty)
        let ownersHost = RecordingHost(confirmer: ScriptedConfirmer(answers: [true]))
        let owners = try await registry.assemble("blogs", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: ownersHost)
        await owners.send(action.event)
        #expect(ownersHost.confirmations.map(\.title) == ["Delete?"] && performed.all == [7])
    }

    @Test func anInstanceThatNamesNoOwnerLetsNobodyTakeItAndIsWarnedAbout() async throws {
        let performed = Performed()
        var registry = SceneRegistry()
        registry.register(BlogsModule.self) { _, _ in BlogsModule(performed: performed) }
        let problems = registry.addScene(id: "blogs", source: #"{ "modules": [ { "id": "blogs", "type": "Blogs" } ] }"#)
        #expect(
            problems.contains {
                $0.severity == .warning && $0.message.hasPrefix("Blogs 'blogs' gives no 'author', so nobody may take its owner-only action 'blog.delete'")
            }, "\(problems)")
    }

    @Test func anOwnerThatIsNotAUserParameterIsAnError() {
        actor Broken: Module {
            static let descriptor = ModuleDescriptor(
                type: "Broken", summary: "", parameters: [ParameterSpec("author", .string)], sends: [OwnerOnlyActionTests.delete],
                performs: [OwnerOnlyActionTests.delete], ownerOnlyActions: [OwnerOnlyActionTests.delete.name: "author"])
            func load(_ request: LoadRequest) async throws {}
            func render() -> ViewNode { .text("t", "") }
        }
        var registry = SceneRegistry()
        registry.register(Broken.self) { _, _ in Broken() }
        let problems = registry.addScene(id: "broken", source: #"{ "modules": [ { "id": "b", "type": "Broken", "params": { "author": "x" } } ] }"#)
        #expect(problems.contains { $0.severity == .error && $0.message.contains("which it does not declare as a userID parameter") }, "\(problems)")
    }

    @Test func theModuleHarnessRefusesItAsTheRouterDoes() async throws {
        let performed = Performed()
        for viewer in ["2", "1"] {
            let harness = try ModuleHarness(BlogsModule.self, parameters: ["author": "1"], viewer: viewer, id: "blogs") { _, _ in
                BlogsModule(performed: performed)
            }
            try await harness.load { _ in }
            try await harness.tap("delete")
            try await harness.receiveEvent("blog.delete")
            if viewer == "2" {
                try await harness.receiveRefusal { #expect($0 == "only the user named by 'author' may take this action") }
                #expect(performed.all.isEmpty)
            }
            try harness.finish()
        }
        #expect(performed.all == [7], "the owner's delete only")
    }

    @Test func aManifestCarriesTheOwnerOnlyActions() throws {
        let text = try ModuleManifest(modules: [BlogsModule.descriptor]).jsonText()
        #expect(text.contains(#""ownerOnlyActions" : {"#))
        #expect(text.contains(#""blog.delete" : "author""#))
    }
}
