import ProfileDomain
import Scenery
import SceneryUserList
import Testing

@Suite struct UserListModuleTests {
    let backend: Backend

    init() throws { backend = try Backend() }

    func module(user: String, list: String, presenter: String, viewer: String?, log: RenderLog = RenderLog()) throws -> UserListModule {
        let module = try UserListModule(
            parameters: parameters(for: UserListModule.descriptor, ["user": .string(user), "list": .string(list), "presenter": .string(presenter)]),
            context: log.context(id: "people", viewer: viewer), relationships: backend.services.relationships)
        log.attach(module)
        return module
    }

    func buttons(_ tree: ViewNode) -> [String] {
        tree.allNodes.compactMap { node in
            if case .button(let title, let event, _) = node.kind, !SceneEvents.isBuiltIn(event.name) { return title }
            return nil
        }
    }

    @Test func oneLayoutTwoPresenters() async throws {
        let follow = try module(user: "1", list: "followers", presenter: "follow", viewer: "1")
        let friend = try module(user: "1", list: "followers", presenter: "friend", viewer: "1")
        try await follow.load(.initial)
        try await friend.load(.initial)
        let (followTree, friendTree) = (await follow.render(), await friend.render())
        // Bob, Carol, Dana, 李雷, 韩梅梅 — sorted by name.
        #expect(buttons(followTree) == ["Following", "Following", "+ Follow", "Following", "+ Follow"])
        #expect(buttons(friendTree) == ["Add friend", "Friends", "Requested", "Friends", "Friends"])
        #expect(followTree.allNodes.map(\.id) == friendTree.allNodes.map(\.id))
    }

    @Test func followIsOptimisticAndRollsBackWhenTheWriteFails() async throws {
        let log = RenderLog()
        let people = try module(user: "1", list: "followers", presenter: "follow", viewer: "1", log: log)
        try await people.load(.initial)
        backend.injector.currentPlan = FaultPlan([.fail(.relationships, operations: [.write])])
        await people.perform(Event("user.follow", from: "user.5.action", payload: ["user": "5", "name": "Dana Quiet"]))
        #expect(log.all.map { $0.texts(of: "user.5.action") } == [["Following"], ["+ Follow"]])
        #expect(await people.notice == "Couldn't update Dana Quiet: The relationships service is unavailable (injected fault).")
        #expect(try await backend.store.profile(of: "5", viewer: "1").viewerFollows == false)
    }

    @Test func acceptingARequestMakesFriends() async throws {
        _ = try await backend.store.changeFriendship(.request, from: "2", with: "5")
        let people = try module(user: "1", list: "followers", presenter: "friend", viewer: "5")
        try await people.load(.initial)
        #expect(await people.render().texts(of: "user.2.action") == ["Accept"])
        await people.perform(Event("friend.accept", from: "user.2.action", payload: ["user": "2"]))
        #expect(await people.render().texts(of: "user.2.action") == ["Friends"])
        let friends = try await backend.store.users(.friends, of: "5", viewer: nil, page: PageRequest(limit: 10))
        #expect(friends.items.map(\.id) == ["2"])
    }

    @Test func rejectsAnUnknownList() {
        #expect(throws: ParameterError.self) { try module(user: "1", list: "enemies", presenter: "follow", viewer: nil) }
    }
}
