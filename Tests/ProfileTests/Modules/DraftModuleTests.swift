import ProfileDemoDomain
import ProfileDemoDrafts
import Scenery
import Synchronization
import Testing

/// A draft service that counts calls: privacy must hold before the service is asked.
final class CountingDrafts: DraftService {
    let base: any DraftService
    let calls = Locked(0)
    init(_ base: any DraftService) { self.base = base }
    func drafts(of owner: UserID, viewer: UserID, page: PageRequest) async throws -> Page<Draft> {
        calls.withLock { $0 += 1 }
        return try await base.drafts(of: owner, viewer: viewer, page: page)
    }
}

/// Drafts on both stores: the owner's newest first, and nobody else's request ever reaches
/// the store.
@Suite struct DraftModuleTests {
    func module(owner: String, viewer: String?, drafts: some DraftService) throws -> DraftModule {
        try DraftModule(
            parameters: parameters(for: DraftModule.descriptor, ["owner": .string(owner)]), context: ModuleContext(id: "drafts", viewer: viewer),
            drafts: drafts)
    }

    @Test(arguments: StoreKind.allCases) func theOwnerSeesTheirDraftsNewestFirst(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let module = try module(owner: "1", viewer: "1", drafts: backend.services.drafts)
        try await module.load(.initial)
        let list = try #require(await module.render().node(withID: "list"))
        let titles = list.allNodes.compactMap { node -> String? in
            if case .text(let text, .headline) = node.kind { return text }
            return nil
        }
        #expect(titles == ["草稿：下一篇茶会", "Through the looking glass", "Untitled draft"])
    }

    /// User 2 has no drafts: the list says where to start one (the form above it).
    @Test(arguments: StoreKind.allCases) func noDraftsSaysWhereToStartOne(kind: StoreKind) async throws {
        let module = try module(owner: "2", viewer: "2", drafts: try await Backend(kind).services.drafts)
        try await module.load(.initial)
        let tree = await module.render()
        #expect(tree.node(withID: "drafts.empty") == .empty("drafts.empty", "No drafts yet: start one above."), "\(tree.visibleTexts)")
        let ids = tree.allNodes.map(\.id.rawValue)
        let form = try #require(ids.firstIndex { $0.hasPrefix("compose") }, "\(ids)")
        #expect(form < (ids.firstIndex(of: "drafts.empty") ?? -1), "the form is above the words that point to it: \(ids)")
    }

    @Test(arguments: StoreKind.allCases, [Optional("2"), nil])
    func anyoneElseIsRefusedBeforeTheServiceIsAsked(kind: StoreKind, viewer: String?) async throws {
        let drafts = CountingDrafts(try await Backend(kind).services.drafts)
        let module = try module(owner: "1", viewer: viewer, drafts: drafts)
        await #expect(throws: ProfileError.notPermitted(DraftModule.privacyMessage)) { try await module.load(.initial) }
        #expect(drafts.calls.withLock { $0 } == 0)
        let tree = await module.render()
        #expect(tree == .error("drafts", DraftModule.privacyMessage))
        #expect(!tree.visibleTexts.contains { $0.contains("looking glass") })
    }

    @Test func isMarkedOwnerOnlyForValidation() {
        #expect(DraftModule.descriptor.ownerOnlyParameter == "owner")
    }
}
