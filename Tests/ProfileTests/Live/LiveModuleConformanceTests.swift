import ProfileDemoBlogs
import ProfileDemoDomain
import ProfileDemoDrafts
import ProfileDemoStore
import ProfileDemoUserInfo
import ProfileDemoUserList
import Scenery
import SceneryTesting
import Synchronization
import Testing

/// Every demo module that shows live data passes `LiveModuleCheck`: a change while its fetch
/// is away, and a read that returns after its own write, never leave older data on screen.
@Suite(.timeLimit(.minutes(5))) struct LiveModuleConformanceTests {
    @Test func userInfoModuleShowsTheNewestProfile() async throws {
        let backend = try Backend()
        let (database, gate) = (backend.database, ReadGate())
        let services = backend.services.gatingReads(with: gate)
        let follow = UserEvents.follow.event(.init(user: "1", name: "Alice Liddell"), from: "info.follow")
        let check = LiveModuleCheck(reads: gate, viewer: "7", action: follow) { context in
            try UserInfoModule(
                parameters: parameters(for: UserInfoModule.descriptor, ["user": "1"]), context: context, profiles: services.profiles,
                relationships: services.relationships, changes: services.changes)
        } changeBySomeoneElse: {
            let follows = try await database.profile(of: "1", viewer: "2").viewerFollows == true
            try await database.setFollowing(!follows, follower: "2", followee: "1")
        }
        let problems = await check.problems()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func blogModuleShowsTheNewestLikes() async throws {
        let backend = try Backend()
        let (database, gate) = (backend.database, ReadGate())
        let services = backend.services.gatingReads(with: gate)
        let like = BlogEvents.like.event(.init(blog: 26, liked: nil), from: "blog.26.like")
        let check = LiveModuleCheck(reads: gate, viewer: "7", action: like) { context in
            try BlogModule(
                parameters: parameters(for: BlogModule.descriptor, ["author": "1"]), context: context, blogs: services.blogs,
                changes: services.changes)
        } changeBySomeoneElse: {
            try await Self.toggleLike(of: 26, by: "2", in: database)
        }
        let problems = await check.problems()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func blogPostModuleShowsTheNewestLikes() async throws {
        let backend = try Backend()
        let (database, gate) = (backend.database, ReadGate())
        let services = backend.services.gatingReads(with: gate)
        let like = BlogEvents.like.event(.init(blog: 26, liked: nil), from: "post.like")
        let check = LiveModuleCheck(reads: gate, viewer: "7", action: like) { context in
            try BlogPostModule(
                parameters: parameters(for: BlogPostModule.descriptor, ["blog": 26]), context: context, blogs: services.blogs,
                changes: services.changes)
        } changeBySomeoneElse: {
            try await Self.toggleLike(of: 26, by: "2", in: database)
        }
        let problems = await check.problems()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func draftModuleShowsTheNewestDrafts() async throws {
        let backend = try Backend()
        let (database, gate) = (backend.database, ReadGate())
        let services = backend.services.gatingReads(with: gate)
        let typed = Mutex(0)
        let save = DraftEvents.save.event(DraftEdit(title: "Written here", body: "Typed on this page."), from: "compose")
        let check = LiveModuleCheck(reads: gate, viewer: "1", action: save) { context in
            try DraftModule(
                parameters: parameters(for: DraftModule.descriptor, ["owner": "1"]), context: context, drafts: services.drafts,
                changes: services.changes)
        } changeBySomeoneElse: {
            // The owner in another tab: another writer than this page's module.
            let number = typed.withLock { count in
                count += 1
                return count
            }
            _ = try await database.save(DraftEdit(title: "From another tab \(number)", body: "Typed there."), by: "1")
        }
        let problems = await check.problems()
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test func userListModuleShowsTheNewestFollowers() async throws {
        let backend = try Backend()
        let (database, gate) = (backend.database, ReadGate())
        let services = backend.services.gatingReads(with: gate)
        let followers = try await database.users(.followers, of: "1", viewer: "7", page: PageRequest(limit: 100)).items
        let stranger = try #require(followers.first { $0.viewerFollows == false && !["2", "7"].contains($0.user.id) })
        let follow = UserEvents.follow.event(.init(user: stranger.user.id, name: stranger.user.name), from: "row.follow")
        let check = LiveModuleCheck(reads: gate, viewer: "7", action: follow) { context in
            try UserListModule(
                parameters: parameters(for: UserListModule.descriptor, ["user": "1", "list": "followers", "pageSize": 100]),
                context: context, relationships: services.relationships, changes: services.changes)
        } changeBySomeoneElse: {
            let follows = try await database.profile(of: "1", viewer: "2").viewerFollows == true
            try await database.setFollowing(!follows, follower: "2", followee: "1")
        }
        let problems = await check.problems()
        #expect(problems.isEmpty, "\(problems)")
    }

    private static func toggleLike(of blog: BlogID, by user: UserID, in database: any ProfileDatabase) async throws {
        let liked = try await database.blog(blog, viewer: user).likedByViewer
        _ = try await database.setLiked(!liked, blog: blog, by: user)
    }
}
