import ProfileDomain
import Scenery
import SceneryProfile
import SceneryUserInfo
import Testing

@Suite struct UserInfoModuleTests {
    let backend: Backend

    init() throws { backend = try Backend() }

    func module(user: String, viewer: String?, log: RenderLog = RenderLog(), params: [String: JSONValue] = [:]) throws -> UserInfoModule {
        var values: [String: JSONValue] = ["user": .string(user)]
        for spec in UserInfoModule.descriptor.parameters { if let value = spec.defaultValue { values[spec.name] = value } }
        values.merge(params) { _, new in new }
        let module = try UserInfoModule(
            parameters: ModuleParameters(values), context: log.context(id: "info", viewer: viewer),
            profiles: backend.services.profiles, relationships: backend.services.relationships)
        log.attach(module)
        return module
    }

    @Test func loadsAndFormatsAProfile() async throws {
        let info = try module(user: "1", viewer: "2")
        #expect(await info.state.phase == "idle")
        try await info.load(.initial)
        let tree = await info.render()
        #expect(
            tree.visibleTexts == [
                "Avatar of Alice Liddell", "Alice Liddell", "Writes about rabbits, clocks and tea.", "Blogs: 27", "Friends: 3", "Followers: 5", "Unfollow",
            ])
        #expect(tree.actions.map(\.event.name) == ["user.open", "user.blogs", "user.friends", "user.followers", "user.unfollow"])
    }

    @Test func showsDefaultsForAnEmptyNameAndSummary() async throws {
        let info = try module(user: "4", viewer: nil)
        try await info.load(.initial)
        #expect(await info.render().visibleTexts.prefix(3) == ["Avatar of Anonymous", "Anonymous", "This user hasn't written anything yet."])
    }

    @Test func failsLoudlyForAnUnknownUserOrAFailingService() async throws {
        await #expect(throws: ProfileError.userNotFound("42")) { try await module(user: "42", viewer: nil).load(.initial) }
        backend.injector.currentPlan = FaultPlan([.fail(.profiles)])
        await #expect(throws: InjectedFault.self) { try await module(user: "1", viewer: nil).load(.initial) }
    }

    @Test func unfollowIsOptimisticAndRollsBackWhenTheWriteFails() async throws {
        let log = RenderLog()
        let info = try module(user: "1", viewer: "2", log: log)
        try await info.load(.initial)
        backend.injector.currentPlan = FaultPlan([.fail(.relationships, operations: [.write])])
        await #expect(throws: InjectedFault.self, "the route says the action failed") {
            try await info.perform(Event("user.unfollow", from: "follow"))
        }
        #expect(log.all.map { $0.texts(of: "follow") } == [["Follow"], ["Unfollow"]], "flipped at once, then rolled back")
        #expect(log.all.map { $0.texts(of: "followers") } == [["Followers: 4"], ["Followers: 5"]])
        #expect(await info.notice == "Couldn't unfollow Alice Liddell: The relationships service is unavailable (injected fault).")
        #expect(try await backend.store.profile(of: "1", viewer: "2").viewerFollows == true, "the database is unchanged")
    }

    @Test func unfollowPersistsWhenTheWriteSucceeds() async throws {
        let info = try module(user: "1", viewer: "2")
        try await info.load(.initial)
        try await info.perform(Event("user.unfollow", from: "follow"))
        #expect(await info.render().texts(of: "follow") == ["Follow"])
        #expect(try await backend.store.profile(of: "1", viewer: "2").viewerFollows == false)
    }

    @Test func passesFollowEventsSoTheSceneCanIntercept() async throws {
        let info = try module(user: "1", viewer: "2")
        try await info.load(.initial)
        #expect(await info.handle(Event("user.unfollow", from: "follow")) == .pass)
        #expect(await info.handle(Event("user.open", from: "avatar")) == .pass)
    }
}
