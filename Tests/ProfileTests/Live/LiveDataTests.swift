import Foundation
import ProfileDemo
import ProfileDemoDomain
import ProfileDemoStore
import Scenery
import SceneryFaults
import SceneryTesting
import Synchronization
import Testing

/// Live data across viewers: what one person changes reaches every open scene that shows
/// it, as the rows that changed, and only the scenes allowed to see it.
///
/// Every test runs on both stores (SQLite and a real PostgreSQL), from the same source.
@Suite(.timeLimit(.minutes(5))) struct LiveDataTests {
    @Test(arguments: StoreKind.allCases) func anotherViewersLikeReachesAnOpenPageAsThatRowOnly(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let backend = setup.backend
        let bob = try await setup.open("2")
        let carol = try await setup.open("7")
        let before = try await backend.database.blog(26, viewer: "7")
        let like = try #require(await bob.scene.render().action(withID: "blogs/blog.26.like"))
        await bob.scene.send(like.event)
        #expect(await carol.host.waitForUpdates { $0.contains { $0.touches("blogs/blog.26") } }, "Bob's like reached Carol's page")
        let touched = carol.host.updates.flatMap(\.touchedIDs)
        #expect(!touched.isEmpty && touched.allSatisfy { $0.isWithin("blogs/blog.26") }, "that row only: \(touched)")
        let row = await carol.scene.render().texts(of: "blogs/blog.26")
        #expect(row.contains("Likes: \(before.likes + 1)"), "\(row)")
        #expect(row.contains("Like") && !row.contains("Unlike"), "Carol's own like state, not Bob's: \(row)")
    }

    @Test(arguments: StoreKind.allCases) func aTabShownForTheFirstTimeShowsWhatChangedSinceThePageOpened(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        // Alice's page made with the Drafts tab selected before it appeared (as a page
        // resumed on another server is): the blogs loaded, but never followed anything.
        let host = RecordingHost()
        let alice = try await setup.registry.assemble("user-profile", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: host)
        await alice.send(Event(SceneEvents.selectTab, from: "sections", payload: ["tabs": "sections", "tab": "drafts"]))
        await alice.appear()
        _ = await alice.takeBaseline()
        host.reset()
        let before = try await setup.backend.database.blog(26, viewer: "1").likes
        _ = try await setup.backend.database.setLiked(true, blog: 26, by: "7")
        await alice.send(Event(SceneEvents.selectTab, from: "sections", payload: ["tabs": "sections", "tab": "blogs"]))
        #expect(await host.waitForUpdates { $0.contains { $0.shows("Likes: \(before + 1)", at: "blogs/blog.26.likes") } }, "fetched again when shown")
    }

    @Test(arguments: StoreKind.allCases) func anUnfollowChangesTheFollowerCountOnEveryOpenCard(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let backend = setup.backend
        let carol = try await setup.open("7")
        let signedOut = try await setup.open(nil)
        let followers = try await backend.database.profile(of: "1", viewer: nil).followerCount
        try await backend.database.setFollowing(false, follower: "2", followee: "1")
        for page in [carol, signedOut] {
            #expect(await page.host.waitForUpdates { $0.contains { $0.module == "info" } })
            let card = await page.scene.render().texts(of: "info")
            #expect(card.contains { $0.contains("\(followers - 1)") && $0.lowercased().contains("follower") }, "\(card)")
        }
    }

    @Test(arguments: StoreKind.allCases) func acceptingAFriendRequestUpdatesBothPeoplesCarousels(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let backend = setup.backend
        let alice = try await setup.open("1", profileOf: "1")
        let four = try await setup.open("4", profileOf: "4")
        _ = try await backend.database.changeFriendship(.accept, from: "1", with: "4")
        for page in [alice, four] {
            #expect(await page.host.waitForUpdates { $0.contains { $0.module == "friends" } })
        }
        let aliceFriends = await alice.scene.render().texts(of: "friends")
        #expect(!aliceFriends.contains("Accept"), "the request became a friendship: \(aliceFriends)")
        #expect(await four.scene.render().texts(of: "friends").contains("Alice Liddell"))
    }

    @Test(arguments: StoreKind.allCases) func draftsAreFollowedByTheirOwnerAloneAndOnlyWhileShown(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let backend = setup.backend
        let alice = try await setup.open("1")
        let bob = try await setup.open("2")
        #expect(backend.database.subscriptionCount(for: .drafts(of: "1")) == 0, "the drafts tab is hidden")
        await alice.scene.send(Event(SceneEvents.selectTab, from: "sections", payload: ["tabs": "sections", "tab": "drafts"]))
        #expect(backend.database.subscriptionCount(for: .drafts(of: "1")) == 1, "Alice's page only; Bob's never subscribes")
        // A draft saved through an import reaches Alice's drafts tab.
        // A draft saved through an import (which also renames Alice, which Bob's page shows)
        // reaches Alice's drafts tab.
        var data = try await backend.database.exportData()
        data.drafts.append(Draft(id: 99, owner: "1", title: "Written elsewhere", body: "", editedAt: Date()))
        let alicesRecord = try #require(data.users.firstIndex { $0.id == "1" })
        data.users[alicesRecord].name = "Alice Pleasance Liddell"
        try await backend.database.importData(data)
        #expect(await alice.host.waitForUpdates { updates in updates.contains { $0.node.visibleTexts.contains { $0.contains("Written elsewhere") } } })
        // The import announced everything: Bob's page fetched what it shows, and no draft.
        #expect(await bob.host.waitForUpdates { updates in updates.contains { $0.node.visibleTexts.contains { $0.contains("Alice Pleasance Liddell") } } })
        for update in bob.host.updates { #expect(!update.node.visibleTexts.contains { $0.contains("Written elsewhere") }) }
        await alice.scene.send(Event(SceneEvents.selectTab, from: "sections", payload: ["tabs": "sections", "tab": "blogs"]))
        #expect(backend.database.subscriptionCount(for: .drafts(of: "1")) == 0, "hidden again: no subscription")
    }

    @Test(arguments: StoreKind.allCases) func aThousandLikesFromFiftyWritersEndWithTheRightCountOnEveryOpenPage(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let backend = setup.backend
        // A thousand people, and fifty pages of Alice's profile open (signed in and out).
        var data = try await backend.database.exportData()
        let likers = (1000..<2000).map { UserID(String($0)) }
        data.users += likers.map { User(id: $0, name: "Reader \($0.rawValue)") }
        try await backend.database.importData(data)
        let viewers: [String?] = ["2", "3", "5", "6", "7", nil]
        var pages: [(scene: SceneInstance, host: RecordingHost)] = []
        for index in 0..<50 { pages.append(try await setup.open(viewers[index % viewers.count])) }
        let before = try await backend.database.blog(26, viewer: nil).likes
        // Fifty writers at once, twenty likes each.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for writer in 0..<50 {
                group.addTask { [store = backend.database] in
                    for liker in likers[(writer * 20)..<(writer * 20 + 20)] { _ = try await store.setLiked(true, blog: 26, by: liker) }
                }
            }
            try await group.waitForAll()
        }
        // English groups thousands ("Likes: 1,020").
        let expected = "Likes: \((before + 1000).formatted(.number.locale(Locale(identifier: "en"))))"
        #expect(try await backend.database.blog(26, viewer: nil).likes == before + 1000)
        for (index, page) in pages.enumerated() {
            let arrived = await page.host.waitForUpdates { updates in updates.contains { $0.shows(expected, at: "blogs/blog.26.likes") } }
            #expect(arrived, "page \(index) shows \(expected)")
            let shown = await page.scene.render().node(withID: "blogs/blog.26.likes")?.visibleTexts
            #expect(shown == [expected], "page \(index): no lost or doubled update")
        }
        for page in pages { await page.scene.leave() }
    }

    @Test(arguments: StoreKind.allCases) func aChangeThatCannotBeFetchedShowsAStaleNoticeAndIsTriedAgain(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let backend = setup.backend
        let carol = try await setup.open("7")
        let before = try await backend.database.blog(26, viewer: "7").likes
        backend.injector.currentPlan = FaultPlan([.init(service: .blogs, operations: [.read], fault: .failure("The database is locked."))])
        _ = try await backend.database.setLiked(true, blog: 26, by: "2")
        let notice = "Couldn't show the latest: The database is locked. Trying again."
        #expect(await carol.host.waitForUpdates { $0.contains { $0.node.visibleTexts.contains(notice) } }, "the module says it may be out of date")
        #expect(await carol.scene.render().node(withID: "info") != nil, "the rest of the page keeps working")
        backend.injector.currentPlan = FaultPlan()
        let expected = "Likes: \(before + 1)"
        // The refresh renders what it fetched (one row), then the query takes the notice away
        // and renders the module again: wait for both.
        let caughtUp = await carol.host.waitForUpdates { updates in
            guard updates.contains(where: { $0.shows(expected, at: "blogs/blog.26.likes") }),
                let frame = updates.last(where: { $0.node.id == "blogs" })
            else { return false }
            return !frame.node.visibleTexts.contains(notice)
        }
        #expect(caughtUp, "tried again, it catches up and the notice goes")
        let shown = await carol.scene.render()
        #expect(shown.node(withID: "blogs/blog.26.likes")?.visibleTexts == [expected])
        #expect(!shown.visibleTexts.contains(notice), "and the notice is gone")
    }

    @Test(arguments: StoreKind.allCases) func aChangeCostsOneQueryPerPageThatShowsItAndNothingElsewhere(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let backend = setup.backend
        let counting = CountingBlogs(base: backend.database)
        let services = ProfileServices(
            profiles: backend.database, blogs: counting, drafts: backend.database, relationships: backend.database, changes: backend.database.changeFeed)
        let registry = try Backend.registry(services)
        var pages: [(scene: SceneInstance, host: RecordingHost)] = []
        for viewer in ["2", "3", "5", "6", "7", nil, "2", "3", "5", "7"] {
            let host = RecordingHost()
            let scene = try await registry.assemble("user-profile", for: SceneContext(viewer: viewer, arguments: ["user": "1"]), host: host)
            await scene.appear()
            _ = await scene.takeBaseline()
            pages.append((scene, host))
        }
        let before = try await backend.database.blog(26, viewer: nil).likes
        let earlier = await counting.blogQueries.count
        // Blog 5 is on no page (each shows the ten newest); blog 26 is on all ten.
        _ = try await backend.database.setLiked(true, blog: 5, by: "2")
        _ = try await backend.database.setLiked(true, blog: 26, by: "2")
        for page in pages {
            #expect(await page.host.waitForUpdates { $0.contains { $0.shows("Likes: \(before + 1)", at: "blogs/blog.26.likes") } })
            #expect(!page.host.updates.contains { $0.touches("blogs/blog.5") }, "no message for a row no page shows")
        }
        let queries = await counting.blogQueries.dropFirst(earlier)
        #expect(Array(queries) == Array(repeating: 26, count: 10), "one query per page that shows the row, none for blog 5: \(queries)")
        for page in pages { await page.scene.leave() }
    }

    @Test(arguments: StoreKind.allCases) func aViewersOwnLikeIsNotFetchedAgainByTheirPageButReachesEveryOtherPage(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let backend = setup.backend
        let counting = CountingBlogs(base: backend.database)
        let registry = try Backend.registry(
            ProfileServices(
                profiles: backend.database, blogs: counting, drafts: backend.database, relationships: backend.database, changes: backend.database.changeFeed))
        var pages: [(scene: SceneInstance, host: RecordingHost)] = []
        for viewer in ["7", "2"] {
            let host = RecordingHost()
            let scene = try await registry.assemble("user-profile", for: SceneContext(viewer: viewer, arguments: ["user": "1"]), host: host)
            await scene.appear()
            _ = await scene.takeBaseline()
            pages.append((scene, host))
        }
        let (carol, bob) = (pages[0], pages[1])
        let before = try await backend.database.blog(26, viewer: nil).likes
        let earlier = await counting.blogQueries.count
        let like = try #require(await carol.scene.render().action(withID: "blogs/blog.26.like"))
        await carol.scene.send(like.event)
        #expect(await bob.host.waitForUpdates { $0.contains { $0.shows("Likes: \(before + 1)", at: "blogs/blog.26.likes") } })
        // Then another viewer's change to a row Carol shows: it reaches her page after
        // anything before it (changes arrive in order), so her own like had its chance.
        let rows = try #require(await carol.scene.render().node(withID: "blogs/list")).visibleTexts
        let other = try #require(await backend.database.blogs(by: "1", viewer: nil, page: PageRequest(offset: 0, limit: 2)).items.first { $0.id != 26 })
        #expect(rows.contains(other.title))
        _ = try await backend.database.setLiked(true, blog: other.id, by: "3")
        #expect(await carol.host.waitForUpdates { $0.contains { $0.shows("Likes: \(other.likes + 1)", at: "blogs/blog.\(other.id).likes") } })
        let queries = Array(await counting.blogQueries.dropFirst(earlier))
        #expect(queries.filter { $0 == 26 }.count == 1, "blog 26 fetched by Bob's page only, not again by Carol's: \(queries)")
        #expect(await carol.scene.render().node(withID: "blogs/blog.26.likes")?.visibleTexts == ["Likes: \(before + 1)"], "Carol shows her like")
        for page in pages { await page.scene.leave() }
    }

    /// The page sent its like, its server applied it and went away before answering; the
    /// page sends it again to another server, which finds it applied: the page shows the
    /// like, with no failure.
    @Test(arguments: StoreKind.allCases) func aLikeAppliedBeforeByAnotherServerShowsAsDoneNotAsAFailure(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let backend = setup.backend
        let carol = try await setup.open("7")
        let before = try await backend.database.blog(26, viewer: "7")
        #expect(!before.likedByViewer)
        let like = try #require(await carol.scene.render().action(withID: "blogs/blog.26.like"))
        let key = ActionKey.random()
        _ = try await ActionKey.run(as: key) { try await backend.database.setLiked(true, blog: 26, by: "7") }  // the first server
        await ActionKey.run(as: key) { await carol.scene.send(like.event) }
        let shown = await carol.scene.render()
        #expect(shown.node(withID: "blogs/blog.26.likes")?.visibleTexts == ["Likes: \(before.likes + 1)"], "\(shown.texts(of: "blogs"))")
        #expect(shown.node(withID: "blogs/blog.26.like")?.visibleTexts == ["Unlike"])
        #expect(!shown.visibleTexts.contains { $0.contains("Couldn't") }, "no failure shown: \(shown.texts(of: "blogs"))")
        #expect(try await backend.database.blog(26, viewer: "7").likes == before.likes + 1, "liked once")
        await carol.scene.leave()
    }

    @Test(arguments: StoreKind.allCases) func aRollbackNeverErasesSomeoneElsesNewerChange(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let backend = setup.backend
        // Carol's like waits at a gate while it is written, and then fails.
        let gate = GatedLikes(base: backend.database)
        let registry = try Backend.registry(
            ProfileServices(
                profiles: backend.database, blogs: gate, drafts: backend.database, relationships: backend.database, changes: backend.database.changeFeed))
        let host = RecordingHost()
        let carol = try await registry.assemble("user-profile", for: SceneContext(viewer: "7", arguments: ["user": "1"]), host: host)
        await carol.appear()
        let before = try await backend.database.blog(26, viewer: "7").likes
        let like = try #require(await carol.takeBaseline().node.action(withID: "blogs/blog.26.like"))
        let carolsLike = Task { await carol.send(like.event) }
        await gate.waitUntilAWriteWaits()
        // Meanwhile Bob's like is saved; then Carol's write fails.
        _ = try await backend.database.setLiked(true, blog: 26, by: "2")
        host.reset()
        gate.release()
        _ = await carolsLike.value
        let expected = "Likes: \(before + 1)"
        #expect(await host.waitForUpdates { $0.contains { $0.shows(expected, at: "blogs/blog.26.likes") } }, "Bob's like shows")
        let shown = await carol.render()
        #expect(shown.node(withID: "blogs/blog.26.likes")?.visibleTexts == [expected], "and stays: \(shown.texts(of: "blogs"))")
        #expect(shown.node(withID: "blogs/blog.26.like")?.visibleTexts == ["Like"], "Carol's own like was rolled back")
        #expect(shown.visibleTexts.contains { $0.contains("The disk is full.") }, "and she is told why")
        #expect(try await backend.database.blog(26, viewer: "7").likes == before + 1)
        await carol.leave()
    }

    @Test(arguments: StoreKind.allCases) func aPageShownAgainShowsWhatChangedWhileItWasHidden(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let backend = setup.backend
        let carol = try await setup.open("7")
        let before = try await backend.database.blog(26, viewer: "7").likes
        await carol.scene.disappear()  // another scene on top, or another tab
        #expect(backend.database.subscriptionCount(for: .blog(26)) == 0, "hidden: nothing followed")
        _ = try await backend.database.setLiked(true, blog: 26, by: "2")
        await carol.scene.appear()
        let shown = await carol.scene.render()
        #expect(shown.node(withID: "blogs/blog.26.likes")?.visibleTexts == ["Likes: \(before + 1)"], "caught up as it appeared")
        #expect(backend.database.subscriptionCount(for: .blog(26)) == 1)
    }

    @Test(arguments: StoreKind.allCases) func aBlogOutsideTheWindowIsNotFollowed(kind: StoreKind) async throws {
        let setup = try await LiveSetup(kind)
        let backend = setup.backend
        let host = RecordingHost()
        let scene = try setup.registry.instantiate("user-profile", for: SceneContext(viewer: "7", arguments: ["user": "1"]), host: host)
        await scene.setWindow(RowWindow(start: 0, count: 5), for: "blogs")
        await scene.start()
        await scene.appear()
        let shown = try await backend.database.blogs(by: "1", viewer: "7", page: PageRequest(offset: 0, limit: 5)).items.map(\.id)
        let outside = try await backend.database.blogs(by: "1", viewer: "7", page: PageRequest(offset: 10, limit: 1)).items[0].id
        #expect(backend.database.subscriptionCount(for: .blog(outside)) == 0, "a change to it causes no query and no message")
        for id in shown { #expect(backend.database.subscriptionCount(for: .blog(id)) == 1) }
        await scene.setWindow(RowWindow(start: 8, count: 5), for: "blogs")
        #expect(backend.database.subscriptionCount(for: .blog(outside)) == 1, "scrolled into the window: followed")
        for id in shown { #expect(backend.database.subscriptionCount(for: .blog(id)) == 0, "scrolled away: not followed") }
        await scene.leave()
        #expect(backend.database.subscriptionCount == 0, "a page that was left holds nothing")
    }
}

extension SceneUpdate {
    /// The ids of the elements the update's patches change.
    var touchedIDs: [NodeID] {
        patches.map { patch in
            switch patch {
            case .delete(let id), .move(let id, _, _), .update(let id, _): id
            case .insert(let element, _, _): element.id
            }
        }
    }

    /// Whether the update's tree shows exactly `text` at the node `id`.
    func shows(_ text: String, at id: NodeID) -> Bool { node.node(withID: id)?.visibleTexts == [text] }

    /// Whether a patch changes `id` or something inside it.
    func touches(_ id: NodeID) -> Bool { touchedIDs.contains { $0.isWithin(id) } }
}

extension NodeID {
    /// Whether this is `other` or an element inside it (`blogs/blog.26.like` is within
    /// `blogs/blog.26`).
    func isWithin(_ other: NodeID) -> Bool {
        self == other || rawValue.hasPrefix(other.rawValue + ".") || rawValue.hasPrefix(other.rawValue + "/")
    }
}

/// A blog service whose likes wait at a gate until the test releases them, then fail.
final class GatedLikes: BlogService {
    private struct State {
        var waiting: [CheckedContinuation<Void, Never>] = []
        var watcher: CheckedContinuation<Void, Never>?
        var isOpen = false
    }

    private let base: any BlogService
    private let state = Locked(State())

    init(base: any BlogService) { self.base = base }

    /// Returns once a like is waiting at the gate.
    func waitUntilAWriteWaits() async {
        await withCheckedContinuation { continuation in
            let now = state.withLock { state -> Bool in
                if !state.waiting.isEmpty { return true }
                state.watcher = continuation
                return false
            }
            if now { continuation.resume() }
        }
    }

    /// Lets every waiting like (and every later one) through, to fail.
    func release() {
        let waiting = state.withLock { state in
            state.isOpen = true
            defer { state.waiting = [] }
            return state.waiting
        }
        for continuation in waiting { continuation.resume() }
    }

    func blogs(by author: UserID, viewer: UserID?, page: PageRequest) async throws -> Page<Blog> {
        try await base.blogs(by: author, viewer: viewer, page: page)
    }

    func blog(_ id: BlogID, viewer: UserID?) async throws -> Blog { try await base.blog(id, viewer: viewer) }

    func setLiked(_ liked: Bool, blog: BlogID, by user: UserID) async throws -> Int {
        await withCheckedContinuation { continuation in
            let (pass, watcher) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
                if state.isOpen { return (true, nil) }
                state.waiting.append(continuation)
                defer { state.watcher = nil }
                return (false, state.watcher)
            }
            if pass { continuation.resume() }
            watcher?.resume()
        }
        throw ProfileError.storage("The disk is full.")
    }
}
