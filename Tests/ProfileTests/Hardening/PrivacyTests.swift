import Foundation
import ProfileDemo
import ProfileDemoDomain
import ProfileDemoDrafts
import ProfileDemoStore
import Scenery
import SceneryTesting
import Testing

/// Drafts never reach anyone but their owner, by any path, on either store.
@Suite struct PrivacyTests {
    static let secrets = ["Through the looking glass", "草稿：下一篇茶会", "Untitled draft", "Half written"]

    /// The demo data on `kind`'s store, and a registry of the bundled scenes on it.
    static func setUp(_ kind: StoreKind) async throws -> (backend: Backend, registry: SceneRegistry) {
        let backend = try await Backend(kind)
        return (backend, try backend.registry())
    }

    func expectNoDrafts(_ tree: ViewNode, _ why: Comment, sourceLocation: SourceLocation = #_sourceLocation) {
        for output in [TextRenderer().render(tree), JSONRenderer().render(tree), HTMLRenderer().render(tree)] {
            for secret in Self.secrets { #expect(!output.contains(secret), why, sourceLocation: sourceLocation) }
            #expect(!output.contains("DraftModule"), why, sourceLocation: sourceLocation)
        }
    }

    @Test(arguments: StoreKind.allCases, [Optional("2"), Optional("3"), nil])
    func sceneVariantsShowDraftsToTheOwnerOnly(kind: StoreKind, viewer: String?) async throws {
        let (_, registry) = try await Self.setUp(kind)
        let scene = try await registry.assemble("user-profile", for: SceneContext(viewer: viewer, arguments: ["user": "1"]), host: RecordingHost())
        expectNoDrafts(await scene.render(), "variant for viewer \(viewer ?? "nil")")
    }

    @Test(arguments: [
        // extends, adding drafts for everyone
        #"{ "extends": "user-profile", "modules": [ { "id": "leak", "type": "DraftModule", "params": { "owner": "$user" } } ] }"#,
        // extends, redefining the owner variant with a weaker condition
        #"{ "extends": "user-profile", "variants": [ { "name": "owner", "when": "viewer != null", "add": [ { "id": "drafts", "type": "DraftModule", "params": { "owner": "$user" } } ] } ] }"#,
        // a literal owner
        #"{ "modules": [ { "id": "d", "type": "DraftModule", "params": { "owner": "1" } } ] }"#,
        // an OR that lets others in
        #"{ "parameters": { "user": "userID" }, "variants": [ { "when": "viewer == user || viewer != null", "add": [ { "id": "d", "type": "DraftModule", "params": { "owner": "$user" } } ] } ] }"#,
    ])
    func sceneFilesThatWouldLeakAreRejected(source: String) throws {
        var registry = try Backend().registry()  // validation only: no data is read
        let problems = registry.addScene(id: "leaky", source: source)
        #expect(problems.contains { $0.message.contains("DraftModule") && $0.message.contains("private") }, "\(problems)")
    }

    @Test(arguments: StoreKind.allCases) func draftsForTheViewerThemselvesAreAllowed(kind: StoreKind) async throws {
        var (_, registry) = try await Self.setUp(kind)
        let problems = registry.addScene(id: "my-drafts", source: #"{ "modules": [ { "id": "d", "type": "DraftModule", "params": { "owner": "$viewer" } } ] }"#)
        #expect(problems.isEmpty)
        let mine = try await registry.assemble("my-drafts", for: SceneContext(viewer: "1"), host: RecordingHost())
        #expect(await mine.render().visibleTexts.contains("Through the looking glass"))
        let signedOut = { try await registry.assemble("my-drafts", for: SceneContext(viewer: nil), host: RecordingHost()) }
        await #expect(throws: SceneryError.self) { _ = try await signedOut() }
    }

    @Test(arguments: StoreKind.allCases) func navigationArgumentsCannotOpenSomeoneElsesDrafts(kind: StoreKind) async throws {
        let (_, registry) = try await Self.setUp(kind)
        // From viewer 2's follow list, open user 1: the profile opens in the visitor variant.
        let transcript = try await SceneScript(
            "follow-list", context: SceneContext(viewer: "2", arguments: ["user": "2", "list": "following"]), registry: registry,
            steps: [.tap("people/user.1"), .expectNavigations(["user-profile"])]
        ).run()
        let intent = try #require(transcript.host.navigations.first)
        let profile = try await registry.assemble("user-profile", for: SceneContext(viewer: "2", arguments: intent.arguments), host: RecordingHost())
        #expect(profile.variant == "default")
        expectNoDrafts(await profile.render(), "navigated profile")
    }

    @Test(arguments: StoreKind.allCases) func theModuleRefusesEvenWhenItIsCreatedDirectly(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let module = try DraftModule(
            parameters: parameters(for: DraftModule.descriptor, ["owner": "1"]), context: ModuleContext(id: "d", viewer: "2"),
            drafts: backend.services.drafts)
        await #expect(throws: ProfileError.self) { try await module.load(.initial) }
        expectNoDrafts(await module.render(), "direct module")
    }

    @Test(arguments: StoreKind.allCases) func theStoreRefusesToo(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        await #expect(throws: ProfileError.notPermitted(DraftModule.privacyMessage)) {
            try await backend.database.drafts(of: "1", viewer: "2", page: PageRequest(limit: 10))
        }
    }
}

/// Every owner-only action of every profile module, sent by someone else on the owner's
/// profile (signed in or out, from every module of the scene): refused, and nothing stored
/// changes. The list comes from the descriptors, so an action added later is covered too.
@Suite struct OwnerOnlyActionPrivacyTests {
    /// Every (module type, event) a profile module declares owner-only.
    static let ownerOnlyActions: [(type: String, event: String)] = ProfileModules.descriptors.flatMap { descriptor in
        descriptor.ownerOnlyActions.keys.sorted().map { (descriptor.type, $0) }
    }

    @Test func theOwnerOnlyActionsAreTheOnesThisSuiteWasWrittenFor() {
        // A new owner-only action is covered below without change; this names the list so a
        // review sees it grow.
        #expect(
            Self.ownerOnlyActions.map { "\($0.type) \($0.event)" }.sorted() == [
                "DraftModule draft.delete", "DraftModule draft.publish", "DraftModule draft.save", "UserInfoModule summary.save",
            ])
    }

    @Test(arguments: StoreKind.allCases, [Optional("2"), nil])
    func nobodyButTheOwnerTakesAnyOwnerOnlyAction(kind: StoreKind, viewer: String?) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        let before = try await backend.database.exportData()
        let draft = try #require(before.drafts.first { $0.owner == "1" })
        // Payloads that would do harm if they got through: the owner's draft, a new summary.
        let payload: [String: JSONValue] = [
            "draft": .int(Int(draft.id)), "version": .int(draft.version), "title": "Mallory", "body": "was here", "summary": "Mallory was here",
        ]
        for locale in [nil, "zh-Hans"] {
            let page = try await registry.assemble(
                "user-profile", for: SceneContext(viewer: viewer, arguments: ["user": "1"], locale: locale),
                host: RecordingHost(confirmer: .acceptingAll))
            await page.appear()
            for (_, event) in Self.ownerOnlyActions {
                for module in ["info", "friends", "blogs", "drafts"] {
                    await page.send(Event(event, from: NodeID("\(module)/forged"), payload: payload))
                }
            }
        }
        let after = try await backend.database.exportData()
        #expect(after == before, "an owner-only action changed the data for viewer \(viewer ?? "signed out")")
    }
}
