import ProfileDemo
import ProfileDemoDomain
import ProfileDemoStore
import Scenery
import SceneryFaults
import SceneryTesting
import Testing

@Suite struct ProfileSceneTests {
    static let draftTitles = ["Through the looking glass", "草稿：下一篇茶会", "Untitled draft"]

    @Test func bundledScenesAllValidate() throws {
        var registry = SceneRegistry()
        registry.declareProfileModules()
        let problems = try registry.loadScenes(in: Backend.scenesDirectory)
        #expect(problems.isEmpty, "\(problems.map(\.description))")
        #expect(
            registry.sceneIDs == [
                "blog-detail", "follow-list", "friend-list", "user-blogs", "user-profile",
            ])
    }

    @Test func aMisspelledFieldOfAUserEventIsAnErrorBeforeAnyoneTaps() {
        var registry = SceneRegistry()
        registry.declareProfileModules()
        let problems = registry.addScene(
            id: "profile",
            source: """
                { "parameters": { "user": "userID" },
                  "modules": [ { "id": "info", "type": "UserInfoModule", "params": { "user": "$user" } } ],
                  "events": [ { "on": "user.unfollow", "confirm": { "title": "Unfollow $event.nmae?" } } ] }
                """)
        let errors = problems.filter { $0.severity == .error }.map(\.message)
        #expect(errors == ["'$event.nmae' is not a field of 'user.unfollow' (did you mean 'name'?): its payload has name, user."], "\(problems)")
    }

    @Test(arguments: StoreKind.allCases) func theOwnerGetsBlogsAndDraftsTabs(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        try await SceneScript(
            "user-profile", context: SceneContext(viewer: "1", arguments: ["user": "1"]), registry: registry,
            steps: [
                .check("variant") { scene, _ in scene.variant == "owner" ? nil : "got \(scene.variant)" },
                .expect(.showsModule("info", status: .ready)),
                .expect(.showsModule("blogs", status: .ready)),
                .expect(.hides("Through the looking glass")),
                .tap("sections#drafts"),
                .expect(.showsModule("drafts", status: .ready)),
                .expect(.shows("Through the looking glass")),
                .expect(.shows("Untitled draft")),
                .expect(.lacksModule("blogs")),
            ]
        ).run()
    }

    @Test(arguments: StoreKind.allCases, [Optional("2"), Optional("5"), nil])
    func noOtherViewerEverSeesDrafts(kind: StoreKind, viewer: String?) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        let scene = try await registry.assemble("user-profile", for: SceneContext(viewer: viewer, arguments: ["user": "1"]), host: RecordingHost())
        await scene.appear()
        let tree = await scene.render()
        let outputs = [TextRenderer().render(tree), JSONRenderer().render(tree, scene: scene.sceneID, variant: scene.variant)]
        for output in outputs {
            #expect(!output.contains("DraftModule"))
            #expect(!output.contains("drafts"))
            for title in Self.draftTitles { #expect(!output.contains(title)) }
        }
        #expect(tree.moduleFrame("blogs")?.status == .ready)
        #expect(!tree.actions.contains { $0.event.name == SceneEvents.selectTab })
    }

    @Test(arguments: StoreKind.allCases) func unfollowAsksFirstAndDecliningChangesNothing(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        try await SceneScript(
            "user-profile", context: SceneContext(viewer: "2", arguments: ["user": "1"]), registry: registry,
            steps: [
                .tap("info/follow", answering: [false]),
                .expectRoute(["module info: passed", "scene: asked 'Unfollow Alice Liddell?', declined"]),
                .expect(.shows("Unfollow")),
            ]
        ).run()
        #expect(try await backend.database.profile(of: "1", viewer: "2").viewerFollows == true)
    }

    @Test(arguments: StoreKind.allCases) func unfollowAcceptedPersists(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        let transcript = try await SceneScript(
            "user-profile", context: SceneContext(viewer: "2", arguments: ["user": "1"]), registry: registry,
            steps: [
                .tap("info/follow", answering: [true]),
                .expectResult(.delivered),
                .expect(.shows("Followers: 4")),
                .expectReceived(["user.unfollow"]),
            ]
        ).run()
        #expect(transcript.host.confirmations.first?.message == "Their new blogs will no longer reach you.")
        #expect(try await backend.database.profile(of: "1", viewer: "2").viewerFollows == false)
    }

    @Test(arguments: StoreKind.allCases) func theFollowListUnfollowsWithoutAsking(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        try await SceneScript(
            "follow-list", context: SceneContext(viewer: "1", arguments: ["user": "1", "list": "following"]), registry: registry,
            steps: [
                .tap("people/user.2.action"),
                .expectRoute(["module people: passed", "scene: passed", "module people: performed", "host: received"]),
                .expect(.shows("+ Follow")),
            ]
        ).run()
        #expect(try await backend.database.profile(of: "2", viewer: "1").viewerFollows == false)
    }

    @Test(arguments: StoreKind.allCases) func selectingABlogNavigatesToItsDetail(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        let transcript = try await SceneScript(
            "user-profile", context: SceneContext(viewer: "2", arguments: ["user": "1"]), registry: registry,
            steps: [.tap("blogs/blog.27"), .expectNavigations(["blog-detail"])]
        ).run()
        let intent = try #require(transcript.host.navigations.first)
        #expect(intent.arguments == ["blog": 27])
        let detail = try await registry.assemble("blog-detail", for: SceneContext(viewer: "2", arguments: intent.arguments), host: RecordingHost())
        #expect(await detail.render().visibleTexts.contains("The pool of tears, part 3"))
    }

    @Test(arguments: StoreKind.allCases) func theProfileInChineseUsesTheSeedsWording(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        let scene = try await registry.assemble(
            "user-profile", for: SceneContext(viewer: "1", arguments: ["user": "4"], locale: "zh-Hans"), host: RecordingHost())
        let texts = await scene.render().visibleTexts
        for expected in ["匿名", "个人简介: 这个人很懒, 什么也没有写~", "作品: 2", "好友: 0", "+关注", "赞 0", "作者姓名: 匿名 · 2026-01-08 09:00"] {
            #expect(texts.contains(expected), "missing \(expected)")
        }
    }

    @Test func theTitleIsTranslatedAlongTheNegotiatedLanguage() throws {
        let registry = try Backend().registry()
        #expect(registry.language(of: "user-profile", for: "zh-CN") == "zh-Hans")
        #expect(registry.title(of: "user-profile", in: "zh-Hans") == "个人主页")
        #expect(registry.title(of: "friend-list", in: "zh-Hans") == "好友")
        #expect(registry.title(of: "user-profile", in: "en") == "Profile")
    }

    @Test func theBundledCatalogsLeaveNothingUntranslatedAndTheThemesPass() throws {
        var registry = SceneRegistry()
        registry.declareProfileModules()
        let problems = try registry.loadScenes(in: Backend.scenesDirectory)
        #expect(problems.isEmpty, "\(problems.map(\.description))")
        #expect(registry.translatedLanguages == ["ar", "zh-Hans"])
        #expect(registry.themes.map(\.name) == ["dark", "high-contrast", "light"])
        #expect(registry.themeDiagnostics.isEmpty, "\(registry.themeDiagnostics.map(\.description))")
        #expect(registry.messageCatalogDiagnostics.isEmpty, "\(registry.messageCatalogDiagnostics.map(\.description))")
    }

    @Test(arguments: StoreKind.allCases) func theOwnerVariantInChineseStillGuardsDrafts(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        let owner = try await registry.assemble(
            "user-profile", for: SceneContext(viewer: "3", arguments: ["user": "3"], locale: "zh-Hans"), host: RecordingHost())
        #expect(owner.variant == "owner")
        let other = try await registry.assemble(
            "user-profile", for: SceneContext(viewer: "1", arguments: ["user": "3"], locale: "zh-Hans"), host: RecordingHost())
        #expect(!JSONRenderer().render(await other.render()).contains("李雷的草稿"))
    }

    @Test(arguments: StoreKind.allCases) func aUserWithoutBlogsShowsTheEmptyState(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        let scene = try await registry.assemble("user-profile", for: SceneContext(viewer: "1", arguments: ["user": "5"]), host: RecordingHost())
        #expect(await scene.render().moduleFrame("blogs")?.content == .stack("blogs/blogs", [.empty("blogs/blogs.empty", "No blogs yet.")]))
    }

    @Test(arguments: StoreKind.allCases) func aFailingBlogServiceLeavesTheRestOfTheProfileWorking(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        backend.injector.currentPlan = FaultPlan([.fail(.blogs)])
        try await SceneScript(
            "user-profile", context: SceneContext(viewer: "2", arguments: ["user": "1"]), registry: registry,
            steps: [
                .expect(.showsModule("info", status: .ready)),
                .expect(.showsModule("blogs", status: .failed)),
                .expect(.shows("The blogs service is unavailable (injected fault).")),
                .check("recover") { _, _ in
                    backend.injector.currentPlan = FaultPlan()
                    return nil
                },
                .tap("blogs/error"),
                .expect(.showsModule("blogs", status: .ready)),
            ]
        ).run()
    }

    @Test(arguments: StoreKind.allCases) func aLikeUpdatesOneRowWithMinimalPatches(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        let host = RecordingHost()
        let scene = try await registry.assemble("user-profile", for: SceneContext(viewer: "5", arguments: ["user": "1"]), host: host)
        let tree = PatchableTree(await scene.takeBaseline().node)
        host.reset()
        let like = try #require(await scene.render().action(withID: "blogs/blog.27.like"))
        await scene.send(like.event)
        // Optimistic: the row only. The settled row equals it, so it sends nothing more.
        #expect(host.updates.map(\.node.id) == ["blogs/blog.27"])
        #expect(host.updates.map(\.sequence) == [1])
        let patched = Set(
            host.updates.flatMap(\.patches).map { patch -> NodeID in
                if case .update(let id, _) = patch { return id }
                return "structural"
            })
        #expect(patched == ["blogs/blog.27.likes", "blogs/blog.27.like"])
        for update in host.updates { try tree.apply(update.patches) }
        #expect(tree.root == (await scene.render()))
    }

    @Test(arguments: StoreKind.allCases) func loadMoreSendsTheNewRowsNotTheWholeModule(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        let host = MirroringHost()
        let scene = try await registry.assemble("user-profile", for: SceneContext(viewer: "5", arguments: ["user": "1"]), host: host)
        await host.attach(to: scene)
        let before = host.appliedUpdates
        await scene.send(Event(SceneEvents.loadMore, from: "blogs/more", payload: ["module": "blogs"]))
        #expect(host.problems.isEmpty)
        #expect(host.appliedUpdates == before + 2, "the paging indicator, then the page")
        let patches = host.updates.dropFirst(before).flatMap(\.patches)
        let rowInserts = patches.filter { if case .insert(.node(let node), _, _) = $0 { node.id.rawValue.hasPrefix("blogs/blog.") } else { false } }
        #expect(rowInserts.count == 10)
        let others = patches.compactMap { patch -> String? in
            switch patch {
            case .insert(.node(let node), _, _): node.id.rawValue.hasPrefix("blogs/blog.") ? nil : "insert \(node.id)"
            case .insert(.section(let section), _, _): "insert \(section.id)"
            case .delete(let id): "delete \(id)"
            case .move(let id, _, _): "move \(id)"
            case .update: nil
            }
        }
        #expect(others == ["insert blogs/blogs.paging", "delete blogs/blogs.paging"], "only the indicator besides the rows")
        #expect(host.tree == (await scene.render()))
    }

    /// The friend button's title for a person in a rendered friend list.
    func friendButton(of name: String, in tree: ViewNode) -> ViewNode? {
        tree.allNodes.first { row in row.action?.name == "user.open" && row.visibleTexts.contains(name) }?
            .allNodes.first { if case .button = $0.kind { true } else { false } }
    }

    @Test(arguments: StoreKind.allCases) func withdrawingAFriendRequestAsksAboutTheRequestNotAFriendship(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        let host = RecordingHost(confirmer: ScriptedConfirmer(answers: [false]))
        let scene = try await registry.assemble("friend-list", for: SceneContext(viewer: "3", arguments: ["user": "1"]), host: host)
        let add = try #require(friendButton(of: "Carol Mint", in: await scene.render())?.id)
        let request = try #require(await scene.render().action(withID: add))
        await scene.send(request.event)
        let withdraw = try #require(await scene.render().action(withID: add))
        #expect(withdraw.title == "Requested")
        #expect(withdraw.event.name == "friend.withdraw")
        await scene.send(withdraw.event)
        #expect(host.confirmations.map(\.title) == ["Withdraw your friend request to Carol Mint?"])
    }

    @Test(arguments: StoreKind.allCases) func theFriendListInChineseUsesTheSeedsThreeStates(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        let host = RecordingHost(confirmer: ScriptedConfirmer(answers: [false]))
        let scene = try await registry.assemble(
            "friend-list", for: SceneContext(viewer: "3", arguments: ["user": "1"], locale: "zh-Hans"), host: host)
        let carol = try #require(friendButton(of: "Carol Mint", in: await scene.render()))
        #expect(carol.visibleTexts == ["加好友"])
        await scene.send(try #require(await scene.render().action(withID: carol.id)).event)
        #expect(friendButton(of: "Carol Mint", in: await scene.render())?.visibleTexts == ["验证中"])
        await scene.send(try #require(await scene.render().action(withID: carol.id)).event)
        #expect(host.confirmations.map(\.title) == ["撤回对Carol Mint的好友请求吗?"])
        let friends = try await registry.assemble(
            "friend-list", for: SceneContext(viewer: "3", arguments: ["user": "7"], locale: "zh-Hans"), host: RecordingHost())
        #expect(friendButton(of: "Alice Liddell", in: await friends.render())?.visibleTexts == ["好友"])
    }

    /// The profile shows friends in a carousel (a layout the scene file chose); on their own
    /// profile, the owner accepts a request there and the person moves across sections in
    /// place, by a move patch the host applies.
    @Test(arguments: StoreKind.allCases) func theOwnerAcceptsAFriendInTheProfilesCarousel(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        let host = MirroringHost()
        let scene = try await registry.assemble("user-profile", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: host)
        await host.attach(to: scene)
        let tree = await scene.render()
        guard case .list(.carousel, let sections)? = tree.node(withID: "friends/list")?.kind else {
            Issue.record("the friends module is not a carousel: \(String(describing: tree.node(withID: "friends/list")?.kind))")
            return
        }
        #expect(sections.map(\.header) == ["Requests", "Friends"])
        let before = host.updates.count
        let accept = try #require(tree.action(withID: "friends/user.4.action"))
        await scene.send(accept.event)
        let patches = host.updates.dropFirst(before).flatMap(\.patches)
        #expect(patches.contains(.move("friends/user.4", parent: "friends/all", index: 0)), "\(patches)")
        #expect(host.problems.isEmpty)
        #expect(host.tree == (await scene.render()))
        #expect(
            try await backend.database.users(.friends, of: "1", viewer: "1", page: PageRequest(limit: 50)).items.first { $0.id == "4" }?.friendState == .friends
        )
    }

    @Test(arguments: StoreKind.allCases) func aFriendInTheCarouselOpensTheirProfileAndTheBlogCountOpensTheGrid(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        let scene = try await registry.assemble("user-profile", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: RecordingHost())
        let tree = await scene.render()
        let friend = try #require(tree.action(withID: "friends/user.3"))
        #expect(await scene.send(friend.event).navigations.map(\.scene) == ["user-profile"])
        #expect(await scene.send(try #require(tree.action(withID: "info/avatar")).event).navigations.map(\.scene) == ["follow-list"])
        let blogs = try #require(tree.action(withID: "info/blogs"))
        let outcome = await scene.send(blogs.event)
        #expect(outcome.navigations.map(\.scene) == ["user-blogs"])
        let grid = try await registry.assemble("user-blogs", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: RecordingHost())
        guard case .list(.adaptiveGrid(let width), let sections)? = await grid.render().node(withID: "blogs/list")?.kind else {
            Issue.record("user-blogs does not lay its blogs out as a grid")
            return
        }
        #expect(width == 30)
        #expect(sections.first?.rows.count == 24)
    }

    /// One scene serves every language: the profile in Chinese links to the friend list, which
    /// the host opens in the viewer's language as it opened this one.
    @Test(arguments: StoreKind.allCases) func theProfileInChineseLinksToTheFriendListItself(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        let host = RecordingHost()
        let scene = try await registry.assemble(
            "user-profile", for: SceneContext(viewer: "2", arguments: ["user": "1"], locale: "zh-Hans"), host: host)
        let friends = try #require(await scene.render().action(withID: "info/friends"))
        let outcome = await scene.send(friends.event)
        #expect(outcome.navigations.map(\.scene) == ["friend-list"])
    }

    @Test(arguments: StoreKind.allCases) func moduleSubtreesNameTheirIdAndTypeInJSON(kind: StoreKind) async throws {
        let backend = try await Backend(kind)
        let registry = try backend.registry()
        let scene = try await registry.assemble("user-profile", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: RecordingHost())
        let json = JSONRenderer().render(await scene.render())
        #expect(json.contains(#""module" : "info""#) && json.contains(#""moduleType" : "UserInfoModule""#))
        #expect(json.contains(#""module" : "blogs""#) && json.contains(#""moduleType" : "BlogModule""#))
    }
}
