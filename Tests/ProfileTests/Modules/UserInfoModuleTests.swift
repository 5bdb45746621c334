import ProfileDemo
import ProfileDemoDomain
import ProfileDemoUserInfo
import Scenery
import SceneryFaults
import Testing

@Suite(.drivesModulesAsAHost) struct UserInfoModuleTests {

    func module(on backend: Backend, user: String, viewer: String?, log: RenderLog = RenderLog(), params: [String: JSONValue] = [:]) throws -> UserInfoModule {
        var values: [String: JSONValue] = ["user": .string(user)]
        for spec in UserInfoModule.descriptor.parameters { if let value = spec.defaultValue { values[spec.name] = value } }
        values.merge(params) { _, new in new }
        let module = try UserInfoModule(
            parameters: ModuleParameters(values), context: log.context(id: "info", viewer: viewer),
            profiles: backend.services.profiles, relationships: backend.services.relationships)
        log.attach(module)
        return module
    }

    @Test(arguments: StoreKind.allCases) func loadsAndFormatsAProfile(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let info = try module(on: backend, user: "1", viewer: "2")
        #expect(await info.state.phase == "idle")
        try await info.load(.initial)
        let tree = await info.render()
        #expect(
            tree.visibleTexts == [
                "Avatar of Alice Liddell", "Alice Liddell", "Writes about rabbits, clocks and tea.", "Blogs: 27", "Friends: 3", "Followers: 5", "Unfollow",
            ])
        #expect(tree.actions.map(\.event.name) == ["user.open", "user.blogs", "user.friends", "user.followers", "user.unfollow"])
    }

    @Test(arguments: StoreKind.allCases) func showsDefaultsForAnEmptyNameAndSummary(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let info = try module(on: backend, user: "4", viewer: nil)
        try await info.load(.initial)
        #expect(await info.render().visibleTexts.prefix(3) == ["Avatar of Anonymous", "Anonymous", "This user hasn't written anything yet."])
    }

    @Test(arguments: StoreKind.allCases) func failsLoudlyForAnUnknownUserOrAFailingService(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        await #expect(throws: ProfileError.userNotFound("42")) { try await module(on: backend, user: "42", viewer: nil).load(.initial) }
        backend.injector.currentPlan = FaultPlan([.fail(.profiles)])
        await #expect(throws: InjectedFault.self) { try await module(on: backend, user: "1", viewer: nil).load(.initial) }
    }

    @Test(arguments: StoreKind.allCases) func unfollowIsOptimisticAndRollsBackWhenTheWriteFails(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let log = RenderLog()
        let info = try module(on: backend, user: "1", viewer: "2", log: log)
        try await info.load(.initial)
        backend.injector.currentPlan = FaultPlan([.fail(.relationships, operations: [.write])])
        await #expect(throws: InjectedFault.self, "the route says the action failed") {
            try await info.perform(Event("user.unfollow", from: "follow"))
        }
        #expect(log.all.map { $0.texts(of: "follow") } == [["Follow"], ["Unfollow"]], "flipped at once, then rolled back")
        #expect(log.all.map { $0.texts(of: "followers") } == [["Followers: 4"], ["Followers: 5"]])
        #expect(
            await info.render().texts(of: "follow.failure") == ["Couldn't unfollow Alice Liddell: The relationships service is unavailable (injected fault)."])
        #expect(await info.notice == nil, "said under the button, not as the module's notice")
        #expect(try await backend.database.profile(of: "1", viewer: "2").viewerFollows == true, "the database is unchanged")
    }

    @Test(arguments: StoreKind.allCases) func unfollowPersistsWhenTheWriteSucceeds(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let info = try module(on: backend, user: "1", viewer: "2")
        try await info.load(.initial)
        try await info.perform(Event("user.unfollow", from: "follow"))
        #expect(await info.render().texts(of: "follow") == ["Follow"])
        #expect(try await backend.database.profile(of: "1", viewer: "2").viewerFollows == false)
    }

    @Test(arguments: StoreKind.allCases) func passesFollowEventsSoTheSceneCanIntercept(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let info = try module(on: backend, user: "1", viewer: "2")
        try await info.load(.initial)
        #expect(await info.handle(Event("user.unfollow", from: "follow")) == .pass)
        #expect(await info.handle(Event("user.open", from: "avatar")) == .pass)
    }
}
