import ProfileDemo
import ProfileDemoDomain
import ProfileDemoUserList
import Scenery
import SceneryFaults
import SceneryTesting
import Testing

@Suite(.drivesModulesAsAHost) struct UserListModuleTests {

    func module(on backend: Backend, user: String, list: String, presenter: String, viewer: String?, log: RenderLog = RenderLog()) throws -> UserListModule {
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

    @Test(arguments: StoreKind.allCases) func oneLayoutTwoPresenters(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let follow = try module(on: backend, user: "1", list: "followers", presenter: "follow", viewer: "1")
        let friend = try module(on: backend, user: "1", list: "followers", presenter: "friend", viewer: "1")
        try await follow.load(.initial)
        try await friend.load(.initial)
        let (followTree, friendTree) = (await follow.render(), await friend.render())
        // Bob, Carol, Dana, 李雷, 韩梅梅 — sorted by name.
        #expect(buttons(followTree) == ["Following", "Following", "+ Follow", "Following", "+ Follow"])
        #expect(buttons(friendTree) == ["Add friend", "Friends", "Requested", "Friends", "Friends"])
        #expect(followTree.allNodes.map(\.id) == friendTree.allNodes.map(\.id))
    }

    /// User 4 follows no one, and no one follows or befriends them: their own empty lists say
    /// what they can do, each its own; anyone else's say only that they are empty.
    @Test(arguments: StoreKind.allCases) func anEmptyListTellsItsOwnPersonWhatToDo(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let own = [
            "followers": "Nobody follows you yet: share the address of your profile.",
            "following": "You follow nobody yet: choose Follow on a profile to see their new blogs.",
            "friends": "No friends yet: choose Add friend beside someone in a list of people.",
        ]
        for (list, text) in own {
            for (viewer, expected) in [("4", text), ("1", "Nobody here yet."), (nil, "Nobody here yet.")] {
                let people = try module(on: backend, user: "4", list: list, presenter: "follow", viewer: viewer)
                try await people.load(.initial)
                #expect(await people.render() == .stack("users", [.empty("users.empty", expected)]), "\(list), viewer \(viewer ?? "none")")
            }
        }
    }

    @Test(arguments: StoreKind.allCases) func followIsOptimisticAndRollsBackWhenTheWriteFails(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let log = RenderLog()
        let people = try module(on: backend, user: "1", list: "followers", presenter: "follow", viewer: "1", log: log)
        try await people.load(.initial)
        backend.injector.currentPlan = FaultPlan([.fail(.relationships, operations: [.write])])
        await #expect(throws: InjectedFault.self) {
            try await people.perform(Event("user.follow", from: "user.5.action", payload: ["user": "5", "name": "Dana Quiet"]))
        }
        #expect(log.all.map { $0.texts(of: "user.5.action") } == [["Following"], ["+ Follow"]])
        // Under the row the person tapped, as a status, not at the foot of the list.
        #expect(await people.render().texts(of: "user.5.failure") == ["Couldn't update Dana Quiet: The relationships service is unavailable (injected fault)."])
        guard case .text(_, let role)? = await people.render().node(withID: "user.5.failure")?.kind else {
            Issue.record("no failure under the row")
            return
        }
        #expect(role == .status)
        #expect(await people.notice == nil)
        #expect(try await backend.database.profile(of: "5", viewer: "1").viewerFollows == false)
    }

    @Test(arguments: StoreKind.allCases) func acceptingARequestMakesFriends(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        _ = try await backend.database.changeFriendship(.request, from: "2", with: "5")
        let people = try module(on: backend, user: "1", list: "followers", presenter: "friend", viewer: "5")
        try await people.load(.initial)
        #expect(await people.render().texts(of: "user.2.action") == ["Accept"])
        try await people.perform(UserEvents.acceptFriendship.event(.init(user: "2", name: "Bob Chen"), from: "user.2.action"))
        #expect(await people.render().texts(of: "user.2.action") == ["Friends"])
        let friends = try await backend.database.users(.friends, of: "5", viewer: nil, page: PageRequest(limit: 10))
        #expect(friends.items.map(\.id) == ["2"])
    }

    /// Seed 003's sections: on her own friend list Alice sees who asks to be her friend
    /// ("Requests") above her friends; accepting moves that row from one section to the
    /// other as one move patch, not a delete and an insert.
    @Test(arguments: StoreKind.allCases) func acceptingARequestMovesTheRowAcrossSections(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        let host = RecordingHost()
        let scene = try await registry.assemble("friend-list", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: host)
        let before = await scene.takeBaseline().node
        guard case .list(_, let sections)? = before.node(withID: "people/list")?.kind else {
            Issue.record("no list")
            return
        }
        #expect(sections.map(\.header) == ["Requests", "Friends"])
        #expect(sections[0].rows.map(\.id) == ["people/user.4"])
        host.reset()
        _ = await scene.send(UserEvents.acceptFriendship.event(.init(user: "4", name: "Li Lei"), from: "people/user.4.action"))
        let patches = host.updates.flatMap(\.patches)
        #expect(patches.contains(.move("people/user.4", parent: "people/all", index: 0)), "\(patches)")
        #expect(patches.contains(.delete("people/requests")))
        #expect(!patches.contains { if case .insert(let element, _, _) = $0 { element.id == "people/user.4" } else { false } })
        guard case .list(_, let after)? = await scene.render().node(withID: "people/list")?.kind else { return }
        #expect(after.map(\.header) == ["Friends"])
        #expect(after[0].rows.map(\.id).contains("people/user.4"))
    }

    /// Requests to be someone's friend are theirs alone: another viewer, or nobody signed
    /// in, never gets them in the list.
    @Test(arguments: StoreKind.allCases) func nobodyElseSeesSomeonesFriendRequests(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        for viewer: UserID? in [nil, "2", "4"] {
            let friends = try await backend.database.users(.friends, of: "1", viewer: viewer, page: PageRequest(limit: 50))
            #expect(!friends.items.map(\.id).contains("4"), "viewer \(viewer.map(\.rawValue) ?? "nobody")")
        }
        let own = try await backend.database.users(.friends, of: "1", viewer: "1", page: PageRequest(limit: 50))
        #expect(own.items.first { $0.id == "4" }?.friendState == .incoming)
    }

    @Test func rejectsAnUnknownList() throws {
        let backend = try Backend()
        #expect(throws: ParameterError.self) { try module(on: backend, user: "1", list: "enemies", presenter: "follow", viewer: nil) }
    }
}
