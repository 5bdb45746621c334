import ProfileDemo
import ProfileDemoBlogs
import ProfileDemoDomain
import ProfileDemoDrafts
import ProfileDemoUserInfo
import ProfileDemoUserList
import Scenery
import SceneryFaults
import SceneryTesting
import Testing

/// Every bundled module, driven through every state it has, renders each id once.
@Suite(.drivesModulesAsAHost) struct ModuleStateIDTests {
    let backend: Backend

    init() throws { backend = try Backend() }

    /// Drives a module: idle, failed, loaded, paging (through the render log), a failed
    /// next page, empty, and an action that fails and leaves a notice. Returns every
    /// rendering seen, named by the state it shows.
    func renderings(
        of module: any Module, log: RenderLog, service: ServiceName, action: Event?, emptyModule: (any Module)?
    ) async -> [(String, ViewNode)] {
        var seen: [(String, ViewNode)] = [("idle", await module.render())]
        backend.injector.currentPlan = FaultPlan([.fail(service, operations: [.read])])
        try? await module.load(.initial)
        seen.append(("failed", await module.render()))
        backend.injector.currentPlan = FaultPlan()
        try? await module.load(.initial)
        seen.append(("loaded", await module.render()))
        try? await module.load(.nextPage)
        seen += log.all.map { ("paging or after a change", $0) }
        seen.append(("next page", await module.render()))
        backend.injector.currentPlan = FaultPlan([.fail(service, operations: [.read, .write])])
        try? await module.load(.nextPage)
        if let action {
            if await module.handle(action) == .pass { try? await module.perform(action) }
        }
        seen.append(("with a notice", await module.render()))
        backend.injector.currentPlan = FaultPlan()
        if let emptyModule {
            try? await emptyModule.load(.initial)
            seen.append(("empty", await emptyModule.render()))
        }
        return seen + log.all.map { ("after an action", $0) }
    }

    func check(_ renderings: [(String, ViewNode)]) {
        #expect(renderings.count >= 6)
        for (state, tree) in renderings {
            #expect(RenderExpectation.hasUniqueIDs.problem(in: tree) == nil, "\(state): \(tree.repeatedIDs)")
        }
    }

    @Test func blogModule() async throws {
        let log = RenderLog()
        func make(_ author: String, _ log: RenderLog) throws -> BlogModule {
            let module = try BlogModule(
                parameters: parameters(for: BlogModule.descriptor, ["author": .string(author), "pageSize": 5]),
                context: log.context(id: "blogs", viewer: "5"), blogs: backend.services.blogs)
            log.attach(module)
            return module
        }
        let module = try make("1", log)
        let seen = await renderings(
            of: module, log: log, service: .blogs, action: Event("blog.like", from: "blog.27.like", payload: ["blog": 27]),
            emptyModule: try make("5", RenderLog()))
        #expect(seen.map(\.0).contains("empty"))
        #expect(seen.contains { $0.1.node(withID: "blogs.paging") != nil }, "the paging state was rendered")
        #expect(seen.contains { $0.1.node(withID: "notice") != nil }, "a notice was rendered")
        check(seen)
    }

    @Test func draftModule() async throws {
        let log = RenderLog()
        func make(_ owner: String, _ log: RenderLog) throws -> DraftModule {
            let module = try DraftModule(
                parameters: parameters(for: DraftModule.descriptor, ["owner": .string(owner), "pageSize": 1]),
                context: log.context(id: "drafts", viewer: owner), drafts: backend.services.drafts)
            log.attach(module)
            return module
        }
        check(await renderings(of: try make("1", log), log: log, service: .drafts, action: nil, emptyModule: try make("6", RenderLog())))
    }

    @Test func userListModule() async throws {
        let log = RenderLog()
        func make(_ user: String, _ log: RenderLog) throws -> UserListModule {
            let module = try UserListModule(
                parameters: parameters(for: UserListModule.descriptor, ["user": .string(user), "pageSize": 1, "list": "followers"]),
                context: log.context(id: "users", viewer: "1"), relationships: backend.services.relationships)
            log.attach(module)
            return module
        }
        let module = try make("1", log)
        try await module.load(.initial)
        let target = try #require(await module.render().allNodes.first { $0.kind.isButton }?.kind.eventPayloadUser)
        let seen = await renderings(
            of: module, log: log, service: .relationships, action: Event("user.follow", from: "x", payload: ["user": .string(target)]),
            emptyModule: try make("6", RenderLog()))
        check(seen)
    }

    @Test func userInfoModule() async throws {
        let log = RenderLog()
        let module = try UserInfoModule(
            parameters: parameters(for: UserInfoModule.descriptor, ["user": "1"]), context: log.context(id: "info", viewer: "2"),
            profiles: backend.services.profiles, relationships: backend.services.relationships)
        log.attach(module)
        check(
            await renderings(of: module, log: log, service: .profiles, action: Event("user.unfollow", from: "follow", payload: ["user": "1"]), emptyModule: nil)
        )
    }

    @Test func blogPostModule() async throws {
        let log = RenderLog()
        let module = try BlogPostModule(
            parameters: parameters(for: BlogPostModule.descriptor, ["blog": 27]), context: log.context(id: "post", viewer: "5"),
            blogs: backend.services.blogs)
        log.attach(module)
        check(await renderings(of: module, log: log, service: .blogs, action: Event("blog.like", from: "like", payload: ["blog": 27]), emptyModule: nil))
    }
}

extension ViewNode.Kind {
    fileprivate var isButton: Bool { if case .button = self { true } else { false } }
    fileprivate var eventPayloadUser: String? {
        if case .button(_, let event, _) = self { event.payload["user"]?.stringValue } else { nil }
    }
}
