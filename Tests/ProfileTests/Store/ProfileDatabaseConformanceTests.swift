import Foundation
import PostgresNIO
import ProfileDemoDomain
import Scenery
import ScenerySiteStore
import SceneryTesting
import Testing

@testable import ProfileDemoStore
@testable import ProfileDemoStorePostgres

/// The store contract (`ProfileDatabase`), checked on both stores from the same source:
/// SQLite (a file) and PostgreSQL (a real server, on loopback). Each test runs once per
/// store; what only one store does is in that store's own suite.
@Suite(.timeLimit(.minutes(5))) struct ProfileDatabaseConformanceTests {
    @Test(arguments: StoreKind.allCases) func seedsTheDemoData(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let alice = try await store.profile(of: "1", viewer: "2")
        #expect(alice.user.name == "Alice Liddell")
        #expect(alice.blogCount == 27)
        #expect(alice.friendCount == 3)
        #expect(alice.followerCount == 5)
        #expect(alice.viewerFollows == true, "user 2 follows user 1")
        let drafts = try await store.drafts(of: "1", viewer: "1", page: PageRequest(limit: 10))
        #expect(drafts.items.count == 3)
        let nameless = try await store.profile(of: "4", viewer: nil)
        #expect(nameless.user.name.isEmpty && nameless.user.summary.isEmpty)
        #expect(try await store.blogs(by: "5", viewer: nil, page: PageRequest(limit: 10)).items.isEmpty)
        #expect(try await store.profile(of: "1", viewer: "1").viewerFollows == nil, "nobody follows themselves")
    }

    @Test(arguments: StoreKind.allCases) func pagesBlogsNewestFirst(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let first = try await store.blogs(by: "1", viewer: nil, page: PageRequest(offset: 0, limit: 10))
        let third = try await store.blogs(by: "1", viewer: nil, page: PageRequest(offset: 20, limit: 10))
        #expect(first.items.count == 10 && first.hasMore)
        #expect(third.items.count == 7 && !third.hasMore)
        #expect(first.items.map(\.createdAt) == first.items.map(\.createdAt).sorted(by: >))
        #expect(first.items.last!.createdAt > third.items.first!.createdAt)
    }

    @Test(arguments: StoreKind.allCases) func likesAreIdempotentAndCounted(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let blog = try await store.blog(1, viewer: "5")
        let liked = try await store.setLiked(true, blog: 1, by: "5")
        #expect(liked == blog.likes + (blog.likedByViewer ? 0 : 1))
        #expect(try await store.setLiked(true, blog: 1, by: "5") == liked, "liking twice counts once")
        #expect(try await store.blog(1, viewer: "5").likedByViewer)
        #expect(try await store.setLiked(false, blog: 1, by: "5") == liked - 1)
    }

    @Test(arguments: StoreKind.allCases) func unknownIdsAreClearErrors(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        await #expect(throws: ProfileError.userNotFound("99")) { try await store.profile(of: "99", viewer: nil) }
        await #expect(throws: ProfileError.blogNotFound(999)) { try await store.setLiked(true, blog: 999, by: "1") }
        await #expect(throws: ProfileError.userNotFound("99")) { try await store.setFollowing(true, follower: "99", followee: "1") }
    }

    @Test(arguments: StoreKind.allCases) func draftsRefuseAnyoneButTheOwner(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        await #expect(throws: ProfileError.notPermitted("Drafts are private: only their owner can see them.")) {
            try await store.drafts(of: "1", viewer: "2", page: PageRequest(limit: 10))
        }
    }

    @Test(arguments: StoreKind.allCases) func followingPersistsAndCannotTargetYourself(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        try await store.setFollowing(false, follower: "2", followee: "1")
        #expect(try await store.profile(of: "1", viewer: "2").viewerFollows == false)
        #expect(try await store.profile(of: "1", viewer: nil).followerCount == 4)
        await #expect(throws: ProfileError.notPermitted("You cannot follow yourself.")) {
            try await store.setFollowing(true, follower: "1", followee: "1")
        }
    }

    @Test(arguments: StoreKind.allCases) func friendshipsMoveThroughTheirStates(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        #expect(try await store.changeFriendship(.request, from: "2", with: "5") == .requested)
        // A pending request is in the addressee's own list, as a request, and nobody else's.
        // (Alice asked Dana in the demo data, so Dana has two requests.)
        let requests = try await store.users(.friends, of: "5", viewer: "5", page: PageRequest(limit: 10)).items
        #expect(requests.map(\.id) == ["1", "2"] && requests.allSatisfy { $0.friendState == .incoming })
        #expect(try await store.users(.friends, of: "5", viewer: "2", page: PageRequest(limit: 10)).items.isEmpty)
        #expect(try await store.changeFriendship(.accept, from: "5", with: "2") == .friends)
        #expect(try await store.users(.friends, of: "5", viewer: "2", page: PageRequest(limit: 10)).items.map(\.id) == ["2"])
        #expect(try await store.changeFriendship(.remove, from: "2", with: "5") == .none)
        await #expect(throws: ProfileError.self) { try await store.changeFriendship(.accept, from: "2", with: "5") }
        // User 4 asked user 1; from user 1's side that request is incoming.
        let followers = try await store.users(.followers, of: "1", viewer: "1", page: PageRequest(limit: 20))
        #expect(followers.items.first { $0.id == "2" }?.viewerFollows == true)
        let four = try await store.users(.friends, of: "1", viewer: "4", page: PageRequest(limit: 20))
        #expect(four.items.allSatisfy { $0.id != "4" })
    }

    @Test(arguments: StoreKind.allCases) func exportAndImportRoundTrip(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let exported = try await store.exportData()
        #expect(exported == DemoData.dataSet)
        let fresh = try await kind.emptyStore()
        try await fresh.importData(ProfileDataSet.decode(from: exported.encoded()))
        #expect(try await fresh.exportData() == exported)
    }

    /// The streamed export is the same text as encoding the whole data set, for the demo
    /// data, for awkward text and for empty tables.
    @Test(arguments: StoreKind.allCases) func streamedExportIsTheSameTextAsTheWholeEncoding(kind: StoreKind) async throws {
        var awkward = DemoData.dataSet
        awkward.users[0].name = "quote \" backslash \\ slash / tab \t é 中文 \u{7F} \u{1F600}"
        awkward.users[1].avatarURL = "https://example.com/a.png"
        for dataSet in [DemoData.dataSet, awkward, ProfileDataSet(users: [User(id: "1", name: "Solo")])] {
            let fresh = try await kind.emptyStore()
            try await fresh.importData(dataSet)
            var streamed = ""
            try await fresh.exportJSON { streamed += $0 }
            #expect(streamed == String(decoding: try await fresh.exportData().encoded(), as: UTF8.self))
            #expect(try ProfileDataSet.decode(from: Data(streamed.utf8)) == dataSet.normalized())
        }
    }

    @Test(arguments: StoreKind.allCases) func anInvalidImportListsEveryProblemAndChangesNothing(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        var broken = DemoData.dataSet
        broken.blogs.append(.init(id: 1, author: "42", title: "dup", body: "", createdAt: Date()))
        broken.follows.append(.init(follower: "3", followee: "3"))
        await #expect(
            throws: ProfileError.invalidData([
                DataProblem(path: "blogs[40].id", message: "1 is used twice; ids must be unique."),
                DataProblem(path: "blogs[40].author", message: "names the user '42', who is not in \"users\"."),
                DataProblem(path: "follows[10]", message: "a user cannot follow themselves."),
            ])
        ) {
            try await store.importData(broken)
        }
        #expect(try await store.exportData() == DemoData.dataSet)
    }

    /// The text of an export is the same whichever store wrote it, and a SQLite export
    /// imported into PostgreSQL and exported back is the same bytes.
    @Test func anExportRoundTripsBetweenTheStoresByteForByte() async throws {
        var data = DemoData.dataSet
        data.users[0].name = "quote \" backslash \\ é 中文 \u{1F600}"
        data.blogs[0].createdAt = Date(timeIntervalSince1970: 1_767_258_000.123_456_789)
        let sqlite = try await StoreKind.sqlite.emptyStore()
        try await sqlite.importData(data)
        let first = try await sqlite.exportText()
        let postgres = try await StoreKind.postgres.emptyStore()
        try await postgres.importData(try ProfileDataSet.decode(from: Data(first.utf8)))
        let second = try await postgres.exportText()
        #expect(second == first)
        let back = try await StoreKind.sqlite.emptyStore()
        try await back.importData(try ProfileDataSet.decode(from: Data(second.utf8)))
        #expect(try await back.exportText() == first)
    }

    /// A blog added on top while someone reads page by page: by position the next page
    /// repeats the last row shown; after the last row (keyset) it does not.
    @Test(arguments: StoreKind.allCases) func pagingAfterTheLastBlogShownHoldsWhenBlogsAreAdded(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let first = try await store.blogs(by: "1", viewer: nil, page: PageRequest(limit: 10)).items
        var data = try await store.exportData()
        data.blogs.append(.init(id: 100, author: "1", title: "Brand new", body: "", createdAt: Date(timeIntervalSince1970: 1_900_000_000)))
        try await store.importData(data)
        let byOffset = try await store.blogs(by: "1", viewer: nil, page: PageRequest(offset: 10, limit: 10)).items
        #expect(byOffset.first?.id == first.last?.id, "by position, the shift repeats a row")
        let cursor = PageCursor.blogs(after: try #require(first.last))
        let byKey = try await store.blogs(by: "1", viewer: nil, page: PageRequest(offset: 10, limit: 10, after: cursor))
        #expect(byKey.items.count == 10 && byKey.hasMore)
        #expect(Set(byKey.items.map(\.id)).isDisjoint(with: first.map(\.id)), "nothing repeated")
        #expect(byKey.items.map(\.createdAt) == byKey.items.map(\.createdAt).sorted(by: >))
        #expect(try #require(byKey.items.first).createdAt < first.last!.createdAt)
        let rest = try await store.blogs(by: "1", viewer: nil, page: PageRequest(limit: 10, after: .blogs(after: byKey.items.last!)))
        #expect(rest.items.count == 7 && !rest.hasMore, "27 blogs in all after the first ten and the next ten")
        #expect(PageCursor(rawValue: "blog:not-hex:1").blogPosition == nil, "a cursor that names no blog")
    }

    /// Someone who sorts first starts following Alice while a page of her followers is
    /// read page by page: after the last person shown, nobody repeats.
    @Test(arguments: StoreKind.allCases) func pagingAfterTheLastPersonShownHoldsWhenPeopleAreAdded(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let first = try await store.users(.followers, of: "1", viewer: nil, page: PageRequest(limit: 2)).items
        var data = try await store.exportData()
        data.users.append(User(id: "50", name: "aaron first"))
        try await store.importData(data)
        try await store.setFollowing(true, follower: "50", followee: "1")
        let byOffset = try await store.users(.followers, of: "1", viewer: nil, page: PageRequest(offset: 2, limit: 2)).items
        #expect(byOffset.first?.user.id == first.last?.user.id, "by position, the shift repeats a person")
        var seen = first.map(\.user.id)
        var cursor = PageCursor.users(after: try #require(first.last).user)
        while true {
            let page = try await store.users(.followers, of: "1", viewer: nil, page: PageRequest(offset: 99, limit: 2, after: cursor))
            seen += page.items.map(\.user.id)
            guard page.hasMore, let last = page.items.last else { break }
            cursor = .users(after: last.user)
        }
        let all = try await store.users(.followers, of: "1", viewer: nil, page: PageRequest(limit: 50)).items.map(\.user.id)
        #expect(Set(seen).count == seen.count, "nobody twice: \(seen)")
        #expect(seen == all.filter { $0 != "50" }, "everyone after the first page, in order, but the one added before it")
        #expect(PageCursor.users(after: User(id: "7", name: "Name: with a colon")).userPosition?.name == "Name: with a colon")
        #expect(PageCursor(rawValue: "user:zz:31").userPosition == nil, "a cursor that names no one")
    }

    /// A draft edited while the owner reads their drafts page by page repeats nothing after
    /// the last draft shown.
    @Test(arguments: StoreKind.allCases) func pagingAfterTheLastDraftShownHoldsWhenADraftIsEdited(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let first = try await store.drafts(of: "1", viewer: "1", page: PageRequest(limit: 2)).items
        var data = try await store.exportData()
        data.drafts.append(Draft(id: 60, owner: "1", title: "Just now", editedAt: Date(timeIntervalSince1970: 1_900_000_000)))
        try await store.importData(data)
        let byOffset = try await store.drafts(of: "1", viewer: "1", page: PageRequest(offset: 2, limit: 2)).items
        #expect(byOffset.first?.id == first.last?.id, "by position, the shift repeats a draft")
        let byKey = try await store.drafts(of: "1", viewer: "1", page: PageRequest(limit: 2, after: .drafts(after: try #require(first.last))))
        #expect(byKey.items.count == 1 && !byKey.hasMore, "the third of Alice's three drafts, once")
        #expect(Set(byKey.items.map(\.id)).isDisjoint(with: first.map(\.id)))
        #expect(PageCursor(rawValue: "draft:nope:1").draftPosition == nil)
    }

    @Test(arguments: StoreKind.allCases) func concurrentLikesByEveryoneAreAllCounted(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let users = try await store.allUsers().map(\.id)
        let other = try await kind.anotherStore(on: store)
        // Half the likes through a second store (another server), all at once.
        try await withThrowingTaskGroup(of: Int.self) { group in
            for (index, user) in users.enumerated() {
                let through = index.isMultiple(of: 2) ? store : other
                group.addTask { try await through.setLiked(true, blog: 2, by: user) }
            }
            try await group.waitForAll()
        }
        #expect(try await store.blog(2, viewer: nil).likes == users.count)
    }

    /// Pages of several viewers reading the same blog and profile at once (PostgreSQL shares
    /// reads asked at once): each viewer gets its own answer, and a read asked after a write
    /// returned sees the write.
    @Test(arguments: StoreKind.allCases) func readsAskedAtOnceGiveEachViewerTheirOwnAnswer(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let likes = try await store.setLiked(true, blog: 3, by: "2")
        let viewers: [UserID?] = [nil, "2", "3"]
        // What each viewer sees, asked one at a time.
        var alone: [UserID?: (Blog, UserProfile)] = [:]
        for viewer in viewers { alone[viewer] = (try await store.blog(3, viewer: viewer), try await store.profile(of: "1", viewer: viewer)) }
        #expect(alone[nil]?.1.viewerFollows == nil && alone["2"]?.1.viewerFollows != nil, "the viewers' answers differ")
        let answers = try await withThrowingTaskGroup(of: (UserID?, Blog, UserProfile).self) { group in
            for index in 0..<60 {
                let viewer = viewers[index % viewers.count]
                group.addTask { (viewer, try await store.blog(3, viewer: viewer), try await store.profile(of: "1", viewer: viewer)) }
            }
            return try await group.reduce(into: []) { $0.append($1) }
        }
        #expect(answers.count == 60)
        for (viewer, blog, profile) in answers {
            let name = viewer?.rawValue ?? "signed out"
            #expect(blog.likes == likes, "\(name)")
            #expect(blog.likedByViewer == (viewer == "2"), "\(name)")
            #expect(blog == alone[viewer]?.0, "\(name)")
            #expect(profile == alone[viewer]?.1, "\(name)")
        }
        let unliked = try await store.setLiked(false, blog: 3, by: "2")
        #expect(try await store.blog(3, viewer: "2").likes == unliked)
        #expect(try await !store.blog(3, viewer: "2").likedByViewer, "the read after the write sees it")
    }

    @Test(arguments: StoreKind.allCases) func aWriteThroughAnotherStoreReachesThisStoresSubscribers(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let other = try await kind.anotherStore(on: store)
        let recorder = ChangeRecorder(store, following: [.blog(26), .profile("1")])
        try await kind.waitUntilListening(store)
        _ = try await other.setLiked(true, blog: 26, by: "2")
        #expect(await recorder.wait(for: .blog(26)))
        try await other.setFollowing(false, follower: "2", followee: "1")
        #expect(await recorder.wait(for: .profile("1")))
        #expect(try await store.blog(26, viewer: "2").likedByViewer, "the other store's write is there to read")
    }

    @Test(arguments: StoreKind.allCases) func aFailedWriteAnnouncesNothing(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let recorder = ChangeRecorder(store, following: [.blog(26), .blog(27)])
        await #expect(throws: ProfileError.blogNotFound(999_999)) { _ = try await store.setLiked(true, blog: 999_999, by: "2") }
        _ = try await store.setLiked(true, blog: 27, by: "2")
        #expect(await recorder.wait(for: .blog(27)))
        #expect(recorder.changes == [.blog(27)], "the failed write announced nothing")
    }

    @Test(arguments: StoreKind.allCases) func aWriteRecordsItsActionKeyForEveryStoreOnTheDatabase(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let other = try await kind.anotherStore(on: store)
        let key = try ActionKey(validating: "like-26-by-bob")
        #expect(try await !store.hasApplied(key))
        _ = try await ActionKey.run(as: key) { try await store.setLiked(true, blog: 26, by: "2") }
        #expect(try await store.hasApplied(key))
        #expect(try await other.hasApplied(key), "another server on the database knows it too")
        // The same action again (its page sent it twice) writes nothing, whatever it asks.
        await #expect(throws: ProfileError.alreadyApplied(key)) {
            try await ActionKey.run(as: key) { try await other.setFollowing(true, follower: "2", followee: "5") }
        }
        #expect(try await store.profile(of: "5", viewer: "2").viewerFollows == false, "the refused write was rolled back whole")
        // A write that failed recorded nothing.
        let failed = try ActionKey(validating: "like-999999")
        await #expect(throws: ProfileError.blogNotFound(999_999)) {
            _ = try await ActionKey.run(as: failed) { try await store.setLiked(true, blog: 999_999, by: "2") }
        }
        #expect(try await !other.hasApplied(failed))
    }

    @Test(arguments: StoreKind.allCases) func anActionRunAgainSkipsExactlyTheWritesItAppliedBefore(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let other = try await kind.anotherStore(on: store)
        let key = ActionKey.random()
        // One action that writes twice: both writes apply, each under its own key.
        try await ActionKey.run(as: key) {
            _ = try await store.setLiked(true, blog: 26, by: "3")
            try await store.setFollowing(true, follower: "3", followee: "4")
        }
        // Run again on another server: both writes are refused; nothing changes.
        let likes = try await store.blog(26, viewer: nil).likes
        let refusals = try await ActionKey.run(as: key) {
            var refused = 0
            do {
                _ = try await other.setLiked(false, blog: 26, by: "3")
            } catch let error as ProfileError where error.kind == .alreadyApplied {
                refused += 1
            }
            do {
                try await other.setFollowing(false, follower: "3", followee: "4")
            } catch let error as ProfileError where error.kind == .alreadyApplied {
                refused += 1
            }
            return refused
        }
        #expect(refusals == 2)
        #expect(try await store.blog(26, viewer: nil).likes == likes)
        #expect(try await store.profile(of: "4", viewer: "3").viewerFollows == true)
        // An action whose first write was applied and whose second was not (its server went
        // away between them): run again, the first is skipped and the second applies.
        let cut = ActionKey.random()
        _ = try await ActionKey.run(as: cut) { try await store.setLiked(true, blog: 25, by: "3") }
        try await ActionKey.run(as: cut) {
            await #expect(throws: ProfileError.alreadyApplied(cut)) { _ = try await other.setLiked(true, blog: 25, by: "3") }
            try await other.setFollowing(true, follower: "3", followee: "5")
        }
        #expect(try await store.profile(of: "5", viewer: "3").viewerFollows == true)
    }

    /// A write that is not idempotent (append a message), made for one action by two
    /// servers at the same moment, happens once.
    @Test(arguments: StoreKind.allCases) func anActionTwoServersRunAtOnceAppendsOnce(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let servers = [store, try await kind.anotherStore(on: store)]
        try await kind.makeMessages(on: store)
        for round in 0..<20 {
            let key = ActionKey.random()
            let outcomes = try await withThrowingTaskGroup(of: Bool.self) { group in
                for server in servers {
                    group.addTask {
                        do {
                            try await ActionKey.run(as: key) { try await kind.append("round \(round)", on: server) }
                            return true
                        } catch let error as ProfileError where error.kind == .alreadyApplied {
                            return false
                        }
                    }
                }
                return try await group.reduce(into: [Bool]()) { $0.append($1) }
            }
            #expect(outcomes.filter { $0 }.count == 1 && outcomes.count == 2, "one server appended, the other was told it was applied already")
            #expect(try await kind.messages(on: store, round: round) == 1, "round \(round)")
        }
    }

    /// The contract every store keeps (SceneryTesting's `StoreConformance`), on both.
    @Test(arguments: StoreKind.allCases) func theStoreKeepsScenerysStoreContract(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let problems = await StoreConformance.problems(feed: store.changeFeed, ledger: store, entities: (.blog(26), .blog(27))) { change in
            guard case .blog(let blog) = change else { return }
            _ = try await store.setLiked(true, blog: blog, by: "3")
        }
        #expect(problems.isEmpty, "\(problems)")
    }

    @Test(arguments: StoreKind.allCases) func aKeyIsClaimedOnceAcrossStores(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let other = try await kind.anotherStore(on: store)
        let key = ActionKey.random()
        #expect(try await store.claim(key))
        #expect(try await !other.claim(key), "claimed already, through another store")
        #expect(try await !store.claim(key))
        #expect(try await other.hasApplied(key))
        // Many servers claiming one key at once: exactly one wins.
        let contested = ActionKey.random()
        let wins = try await withThrowingTaskGroup(of: Bool.self) { group in
            for index in 0..<8 { group.addTask { try await (index.isMultiple(of: 2) ? store : other).claim(contested) } }
            return try await group.reduce(0) { $0 + ($1 ? 1 : 0) }
        }
        #expect(wins == 1)
    }

    @Test(arguments: StoreKind.allCases) func generatedBlogsComeNewestFirstAfterTheAuthorsOwn(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        let ids = try await store.addGeneratedBlogs(count: 30, author: "5")
        #expect(ids == 41...70, "after the demo data's 40 blogs")
        let page = try await store.blogs(by: "5", viewer: nil, page: PageRequest(offset: 0, limit: 10))
        #expect(page.total == 30 && page.hasMore)
        #expect(page.items.map(\.title).prefix(2) == ["Generated post 1", "Generated post 2"])
        await #expect(throws: ProfileError.userNotFound("99")) { try await store.addGeneratedBlogs(count: 1, author: "99") }
    }

    @Test(arguments: StoreKind.allCases) func aReadUnderWritesSeesItsRowsAndCountsFromOneSnapshot(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        // User 5 has no blogs; blogs are added one at a time while pages and profiles are read.
        let writer = Task {
            for _ in 0..<60 { _ = try await store.addGeneratedBlogs(count: 1, author: "5") }
        }
        var reads = 0
        while reads < 200 {
            reads += 1
            async let page = store.blogs(by: "5", viewer: nil, page: PageRequest(offset: 0, limit: 500))
            async let profile = store.profile(of: "5", viewer: nil)
            let (blogs, user) = try await (page, profile)
            #expect(blogs.items.count == blogs.total, "a page's rows and its total agree: \(blogs.items.count) rows, total \(blogs.total)")
            #expect(user.blogCount <= 60)
        }
        try await writer.value
        #expect(try await store.blogs(by: "5", viewer: nil, page: PageRequest(offset: 0, limit: 500)).total == 60)
    }

    @Test(arguments: StoreKind.allCases) func impressionsAreTalliedByDistinctUnit(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        func record(_ kind: ImpressionRecord.Kind, _ unit: String, _ arm: String) -> ImpressionRecord {
            ImpressionRecord(
                kind: kind, time: Date(timeIntervalSince1970: 1_767_258_000), scene: "user-profile", variant: "visitor", unit: unit,
                experiment: "friends-layout", arm: arm)
        }
        try await store.record([
            record(.assignment, "2", "carousel"), record(.assignment, "2", "carousel"), record(.assignment, "3", "rows"),
            record(.exposure, "3", "rows"),
        ])
        let tallies = try await store.experimentTallies()
        #expect(tallies.count == 1)
        #expect(tallies.first?.assigned == ["carousel": 1, "rows": 1])
        #expect(tallies.first?.exposed == ["rows": 1])
    }

    @Test(arguments: StoreKind.allCases) func theSignInListIsInNumericOrder(kind: StoreKind) async throws {
        let store = try await kind.seededStore()
        var data = DemoData.dataSet
        data.users.append(User(id: "10", name: "Ten"))
        try await store.importData(data)
        #expect(try await store.allUsers().map(\.id.rawValue) == ["1", "2", "3", "4", "5", "6", "7", "10"])
        #expect(try await store.allUsers(limit: 2).count == 2)
    }
}

/// The two stores, made fresh for each test.
enum StoreKind: String, CaseIterable, CustomTestStringConvertible, Sendable {
    case sqlite, postgres

    var testDescription: String { rawValue }

    /// A store on a new database seeded with the demo data.
    func seededStore() async throws -> any ProfileDatabase { try await store(seeded: true) }

    /// A store on a new, empty database.
    func emptyStore() async throws -> any ProfileDatabase { try await store(seeded: false) }

    private func store(seeded: Bool) async throws -> any ProfileDatabase {
        switch self {
        case .sqlite:
            let directory = FileManager.default.temporaryDirectory.appending(path: "scenery-conformance-\(UUID().uuidString)")
            try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
            return try SQLiteProfileStore(path: directory.appending(path: "demo.sqlite").path, seedDemoData: seeded)
        case .postgres:
            let url = try await TestPostgres.sharedServer().newDatabase()
            return try await PostgresProfileStore.connect(to: url, seedDemoData: seeded)
        }
    }

    /// A second store on the same database as `store`: what another server holds.
    func anotherStore(on store: any ProfileDatabase) async throws -> any ProfileDatabase {
        switch store {
        case let store as SQLiteProfileStore: try SQLiteProfileStore(path: store.path)
        case let store as PostgresProfileStore: try await PostgresProfileStore.connect(to: store.url)
        default: throw TestPostgres.Failure(description: "unknown store \(type(of: store))")
        }
    }

    /// Waits until `store` hears other stores' writes (PostgreSQL's listening connection is
    /// up; SQLite's watcher runs from the first subscription).
    func waitUntilListening(_ store: any ProfileDatabase) async throws {
        if let store = store as? PostgresProfileStore { try await store.listen() }
    }

    /// Makes a table of messages on `store`'s database, for writes that are not idempotent.
    func makeMessages(on store: any ProfileDatabase) async throws {
        switch store {
        case let store as SQLiteProfileStore:
            try await store.withConnection { connection throws(ProfileError) in
                try connection.execute("CREATE TABLE messages (id INTEGER PRIMARY KEY, text TEXT NOT NULL)")
            }
        case let store as PostgresProfileStore:
            _ = try await store.writing("make messages", announcing: []) { connection, logger in
                try await connection.query("CREATE TABLE messages (id BIGSERIAL PRIMARY KEY, text TEXT NOT NULL)", logger: logger)
            }
        default: throw TestPostgres.Failure(description: "unknown store \(type(of: store))")
        }
    }

    /// Appends a message through the store's own write path (the action's key recorded
    /// first, in the same transaction).
    func append(_ text: String, on store: any ProfileDatabase) async throws {
        switch store {
        case let store as SQLiteProfileStore:
            try await store.withConnection { connection throws(ProfileError) in
                try store.committing([], in: connection) { () throws(ProfileError) in
                    _ = try connection.run("INSERT INTO messages (text) VALUES (?)", [.text(text)])
                }
            }
        case let store as PostgresProfileStore:
            _ = try await store.writing("append a message", announcing: []) { connection, logger in
                try await connection.query("INSERT INTO messages (text) VALUES (\(text))", logger: logger)
            }
        default: throw TestPostgres.Failure(description: "unknown store \(type(of: store))")
        }
    }

    /// How many messages of `round` the database holds.
    func messages(on store: any ProfileDatabase, round: Int) async throws -> Int {
        let text = "round \(round)"
        switch store {
        case let store as SQLiteProfileStore:
            return try await store.withConnection { connection throws(ProfileError) in
                Int(try connection.query("SELECT COUNT(*) FROM messages WHERE text = ?", [.text(text)]).first?.first?.integer ?? -1)
            }
        case let store as PostgresProfileStore:
            return try await store.reading("count messages") { connection, logger in
                for try await (count) in try await connection.query("SELECT COUNT(*) FROM messages WHERE text = \(text)", logger: logger)
                    .decode(Int.self)
                {
                    return count
                }
                return -1
            }
        default: throw TestPostgres.Failure(description: "unknown store \(type(of: store))")
        }
    }
}

extension ProfileDatabase {
    /// The export's text.
    func exportText() async throws -> String {
        var text = ""
        try await exportJSON { text += $0 }
        return text
    }
}
