import ProfileDemo
import ProfileDemoBlogs
import ProfileDemoDomain
import Scenery
import SceneryFaults
import SceneryTesting
import Testing

/// The blog list module, on either store.
@Suite(.drivesModulesAsAHost) struct BlogModuleTests {
    func module(on backend: Backend, author: String, viewer: String?, pageSize: Int = 10, log: RenderLog = RenderLog()) throws -> BlogModule {
        let module = try BlogModule(
            parameters: parameters(for: BlogModule.descriptor, ["author": .string(author), "pageSize": .int(pageSize)]),
            context: log.context(id: "blogs", viewer: viewer), blogs: backend.services.blogs)
        log.attach(module)
        return module
    }

    func rows(_ tree: ViewNode) -> [ViewNode] {
        tree.allNodes.filter { $0.action?.name == "blog.open" }
    }

    @Test(arguments: StoreKind.allCases) func pagesThroughAllBlogs(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let blogs = try module(on: backend, author: "1", viewer: nil)
        try await blogs.load(.initial)
        #expect(rows(await blogs.render()).count == 10)
        #expect(await blogs.render().node(withID: "more") != nil)
        try await blogs.load(.nextPage)
        try await blogs.load(.nextPage)
        let tree = await blogs.render()
        #expect(rows(tree).count == 27)
        #expect(tree.node(withID: "more") == nil, "no more pages")
        #expect(Set(rows(tree).map(\.id)).count == 27, "no blog twice")
        try await blogs.load(.refresh)
        #expect(rows(await blogs.render()).count == 10, "refresh starts over")
    }

    @Test(arguments: StoreKind.allCases) func aWindowFetchesTheRowsItReachesInOneRequestAndShowsOnlyThem(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let counting = CountingBlogs(base: backend.services.blogs)
        let log = RenderLog()
        let blogs = try BlogModule(
            parameters: parameters(for: BlogModule.descriptor, ["author": "1", "pageSize": 5]),
            context: log.context(id: "blogs", viewer: nil), blogs: counting)
        try await blogs.load(.initial)
        let fifth = try await backend.database.blogs(by: "1", viewer: nil, page: PageRequest(offset: 4, limit: 1)).items[0]
        try await blogs.load(window: RowWindow(start: 15, count: 10))
        #expect(
            await counting.requests == [PageRequest(offset: 0, limit: 5), PageRequest(offset: 5, limit: 20, after: .blogs(after: fifth))],
            "the rest after the last blog held (keyset), so blogs added meanwhile repeat none")
        let tree = await blogs.render(window: RowWindow(start: 15, count: 10))
        guard case .list(_, let sections)? = tree.node(withID: "list")?.kind else {
            Issue.record("no list")
            return
        }
        #expect(sections[0].rows.count == 10)
        #expect(sections[0].firstRowIndex == 15)
        #expect(sections[0].totalRowCount == 27, "the whole list's size, from the service")
        #expect(tree.node(withID: "more") == nil, "a host that scrolls asks for windows, not pages")
        // A window inside what is loaded costs nothing; one past the end asks for the rest once.
        try await blogs.load(window: RowWindow(start: 0, count: 10))
        try await blogs.load(window: RowWindow(start: 20, count: 60))
        try await blogs.load(window: RowWindow(start: 26, count: 60))
        #expect(await counting.requests.count == 3)
        let end = await blogs.render(window: RowWindow(start: 20, count: 60))
        #expect(rows(end).count == 7)
        #expect(await blogs.render().node(withID: "more") == nil, "everything is loaded")
    }

    @Test(arguments: StoreKind.allCases) func aWindowThatFailsToLoadKeepsTheRowsAndSaysSo(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let failing = CountingBlogs(base: backend.services.blogs)
        let other = try BlogModule(
            parameters: parameters(for: BlogModule.descriptor, ["author": "1", "pageSize": 5]),
            context: RenderLog().context(id: "blogs", viewer: nil), blogs: failing)
        try await other.load(.initial)
        await failing.setFailing(true)
        await #expect(throws: (any Error).self) { try await other.load(window: RowWindow(start: 10, count: 10)) }
        let tree = await other.render(window: RowWindow(start: 10, count: 10))
        #expect(rows(tree).isEmpty, "rows it does not hold are not made up")
        #expect(tree.visibleTexts.contains { $0.hasPrefix("Couldn't load more") })
        #expect(rows(await other.render(window: RowWindow(start: 0, count: 10))).count == 5)
    }

    @Test(arguments: StoreKind.allCases) func showsTheEmptyState(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let blogs = try module(on: backend, author: "5", viewer: nil)
        try await blogs.load(.initial)
        #expect(await blogs.state.phase == "empty")
        #expect(await blogs.render() == .stack("blogs", [.empty("blogs.empty", "No blogs yet.")]))
    }

    /// The author of an empty list is told how to fill it; everyone else, that it is empty.
    @Test(arguments: StoreKind.allCases) func theAuthorsEmptyStateSaysWhatToDo(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        for (viewer, text) in [("5", "No blogs yet: publish one from the drafts on your profile."), ("1", "No blogs yet.")] {
            let blogs = try module(on: backend, author: "5", viewer: viewer)
            try await blogs.load(.initial)
            #expect(await blogs.render() == .stack("blogs", [.empty("blogs.empty", text)]), "viewer \(viewer)")
        }
    }

    @Test(arguments: StoreKind.allCases) func likeIsOptimisticAndRollsBackWhenTheWriteFails(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let log = RenderLog()
        let blogs = try module(on: backend, author: "1", viewer: "5", log: log)
        try await blogs.load(.initial)
        let before = try await backend.database.blog(27, viewer: "5")
        #expect(!before.likedByViewer)
        backend.injector.currentPlan = FaultPlan([.fail(.blogs, operations: [.write])])
        #expect(await blogs.handle(Event("blog.like", from: "blog.27.like", payload: ["blog": 27])) == .handled)
        #expect(log.all.map { $0.texts(of: "blog.27.actions") } == [["Likes: \(before.likes + 1)", "Unlike"], ["Likes: \(before.likes)", "Like"]])
        // Said under the row's button, where the person tapped, not at the foot of the list.
        let failure = await blogs.render().texts(of: "blog.27.failure")
        #expect(failure.first?.hasPrefix("Couldn't like “The pool of tears, part 3”") == true, "\(failure)")
        #expect(failure.first?.hasSuffix("Tap Like to try again.") == true)
        #expect(await blogs.notice == nil)
        // The next like anywhere takes the failure away.
        backend.injector.currentPlan = FaultPlan()
        #expect(await blogs.handle(Event("blog.like", from: "blog.26.like", payload: ["blog": 26])) == .handled)
        #expect(await blogs.render().node(withID: "blog.27.failure") == nil)
        #expect(try await backend.database.blog(27, viewer: "5") == before, "the database is unchanged")
    }

    @Test(arguments: StoreKind.allCases) func aListFetchThatReadBeforeAChangeNeverLeavesItsOlderRowOverTheNewer(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let gate = ReadGate()
        let gated = backend.services.gatingReads(with: gate).blogs
        let log = RenderLog()
        let blogs = try BlogModule(
            parameters: parameters(for: BlogModule.descriptor, ["author": "1"]), context: log.context(id: "blogs", viewer: nil), blogs: gated,
            changes: backend.database.changeFeed)
        log.attach(blogs)
        try await blogs.load(.initial)
        await blogs.appear()
        await blogs.disappear()  // hidden for a while: shown again, it fetches its list
        let before = try await backend.database.blog(26, viewer: nil).likes
        gate.holdNextRead()
        async let shownAgain: Void = blogs.appear()  // reads the list now, before the like, and answers late
        // Under the whole suite's load the read has been seen to take 20 s to come.
        #expect(await gate.waitUntilHolding(timeout: .seconds(60)))
        _ = try await backend.database.setLiked(true, blog: 26, by: "2")
        // The like's change is applied while the list fetch is away (the actor lets it in).
        #expect(await log.wait { $0.texts(of: "blog.26.likes") == ["Likes: \(before + 1)"] })
        gate.release()
        await shownAgain
        #expect(await blogs.render().texts(of: "blog.26.likes") == ["Likes: \(before + 1)"], "the older list did not stay over the newer row")
    }

    @Test(arguments: StoreKind.allCases) func rowsSharedBetweenPagesShowEachViewerTheirOwn(kind: StoreKind) async throws {
        // Rows are rendered once for every page whose row reads the same: a viewer's like,
        // right to like and failed like must still be theirs alone.
        let backend = try await Backend(kind)
        let liker = try module(on: backend, author: "1", viewer: "5")
        let other = try module(on: backend, author: "1", viewer: "3")
        let signedOut = try module(on: backend, author: "1", viewer: nil)
        for blogs in [liker, other, signedOut] { try await blogs.load(.initial) }
        _ = await liker.handle(Event("blog.like", from: "blog.27.like", payload: ["blog": 27, "liked": true]))
        backend.injector.currentPlan = FaultPlan([.fail(.blogs, operations: [.write])])
        _ = await liker.handle(Event("blog.like", from: "blog.26.like", payload: ["blog": 26, "liked": true]))
        backend.injector.currentPlan = FaultPlan()
        for blogs in [other, signedOut] { try await blogs.load(.refresh) }
        let likes = try await backend.database.blog(27, viewer: nil).likes
        #expect(await liker.render().texts(of: "blog.27.actions") == ["Likes: \(likes)", "Unlike"])
        #expect(await other.render().texts(of: "blog.27.actions") == ["Likes: \(likes)", "Like"])
        #expect(await signedOut.render().texts(of: "blog.27.actions") == ["Likes: \(likes)"])
        #expect(await liker.render().node(withID: "blog.26.failure") != nil)
        #expect(await other.render().node(withID: "blog.26.failure") == nil, "one viewer's failed like is not shown to another")
        #expect(await signedOut.render().node(withID: "blog.26.failure") == nil)
    }

    @Test(arguments: StoreKind.allCases) func likeSettlesOnTheServersCount(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let blogs = try module(on: backend, author: "1", viewer: "5")
        try await blogs.load(.initial)
        _ = await blogs.handle(Event("blog.like", from: "blog.27.like", payload: ["blog": 27, "liked": true]))
        let stored = try await backend.database.blog(27, viewer: "5")
        #expect(stored.likedByViewer)
        #expect(await blogs.render().texts(of: "blog.27.likes") == ["Likes: \(stored.likes)"])
    }

    @Test(arguments: StoreKind.allCases) func signedOutViewersGetNoLikeButton(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let blogs = try module(on: backend, author: "1", viewer: nil)
        try await blogs.load(.initial)
        #expect(!(await blogs.render().actions.contains { $0.event.name == "blog.like" }))
    }

    @Test(arguments: StoreKind.allCases) func selectingARowCarriesTheBlog(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let blogs = try module(on: backend, author: "1", viewer: nil)
        try await blogs.load(.initial)
        let open = try #require(await blogs.render().action(withID: "blog.27"))
        #expect(open.event == Event("blog.open", from: "blog.27", payload: ["blog": 27]))
        #expect(await blogs.handle(open.event) == .pass, "the scene decides where it goes")
    }

    @Test(arguments: StoreKind.allCases) func aFailedNextPageKeepsTheRowsAndSaysWhy(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let blogs = try module(on: backend, author: "1", viewer: nil)
        try await blogs.load(.initial)
        backend.injector.currentPlan = FaultPlan([.fail(.blogs, operations: [.read])])
        await #expect(throws: InjectedFault.self) { try await blogs.load(.nextPage) }
        #expect(rows(await blogs.render()).count == 10)
        #expect(await blogs.notice == "Couldn't load more: The blogs service is unavailable (injected fault).")
    }
}

@Suite(.drivesModulesAsAHost) struct BlogPostModuleTests {
    @Test func showsOneBlogInFullAndLinksItsAuthor() async throws {
        let backend = try Backend()
        let post = try BlogPostModule(
            parameters: parameters(for: BlogPostModule.descriptor, ["blog": 31]), context: ModuleContext(id: "post", viewer: nil),
            blogs: backend.services.blogs)
        try await post.load(.initial)
        let tree = await post.render()
        #expect(tree.visibleTexts.prefix(3) == ["第一篇博客", "By 李雷 · 2026-01-03 09:00", "这是李雷的第1篇文章。"])
        #expect(tree.actions.map(\.event) == [Event("user.open", from: "blog.31.byline", payload: ["user": "3"])])
        let missing = try BlogPostModule(
            parameters: parameters(for: BlogPostModule.descriptor, ["blog": 999]), context: ModuleContext(id: "post", viewer: nil),
            blogs: backend.services.blogs)
        await #expect(throws: ProfileError.blogNotFound(999)) { try await missing.load(.initial) }
    }
}

/// A blog service that records the pages asked for and can fail on demand.
actor CountingBlogs: BlogService {
    let base: any BlogService
    private(set) var requests: [PageRequest] = []
    /// The ids of the single blogs asked for, in order.
    private(set) var blogQueries: [BlogID] = []
    private var failing: Bool

    init(base: any BlogService, failing: Bool = false) {
        self.base = base
        self.failing = failing
    }

    func setFailing(_ value: Bool) { failing = value }

    func blogs(by author: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<Blog> {
        requests.append(page)
        if failing { throw InjectedFault(service: .blogs, message: "The blog service is down (injected).") }
        return try await base.blogs(by: author, viewer: viewer, page: page)
    }

    func blog(_ id: BlogID, viewer: UserID?) async throws -> Blog {
        blogQueries.append(id)
        return try await base.blog(id, viewer: viewer)
    }

    func setLiked(_ liked: Bool, blog: BlogID, by user: UserID) async throws -> Int {
        try await base.setLiked(liked, blog: blog, by: user)
    }
}
