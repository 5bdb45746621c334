import Foundation
import ProfileDomain
import Testing

@testable import ProfileStore

@Suite struct SQLiteProfileStoreTests {
    let store: SQLiteProfileStore

    init() throws {
        store = try SQLiteProfileStore.inMemory()
    }

    @Test func seedsTheDemoData() async throws {
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

    @Test func pagesBlogsNewestFirst() async throws {
        let first = try await store.blogs(by: "1", viewer: nil, page: PageRequest(offset: 0, limit: 10))
        let third = try await store.blogs(by: "1", viewer: nil, page: PageRequest(offset: 20, limit: 10))
        #expect(first.items.count == 10 && first.hasMore)
        #expect(third.items.count == 7 && !third.hasMore)
        #expect(first.items.map(\.createdAt) == first.items.map(\.createdAt).sorted(by: >))
        #expect(first.items.last!.createdAt > third.items.first!.createdAt)
    }

    @Test func likesAreIdempotentAndCounted() async throws {
        let blog = try await store.blog(1, viewer: "5")
        let liked = try await store.setLiked(true, blog: 1, by: "5")
        #expect(liked == blog.likes + (blog.likedByViewer ? 0 : 1))
        #expect(try await store.setLiked(true, blog: 1, by: "5") == liked, "liking twice counts once")
        #expect(try await store.blog(1, viewer: "5").likedByViewer)
        #expect(try await store.setLiked(false, blog: 1, by: "5") == liked - 1)
    }

    @Test func unknownIdsAreClearErrors() async {
        await #expect(throws: ProfileError.userNotFound("99")) { try await store.profile(of: "99", viewer: nil) }
        await #expect(throws: ProfileError.blogNotFound(999)) { try await store.setLiked(true, blog: 999, by: "1") }
        await #expect(throws: ProfileError.userNotFound("99")) { try await store.setFollowing(true, follower: "99", followee: "1") }
    }

    @Test func draftsRefuseAnyoneButTheOwner() async {
        await #expect(throws: ProfileError.notPermitted("Drafts are private: only their owner can see them.")) {
            try await store.drafts(of: "1", viewer: "2", page: PageRequest(limit: 10))
        }
    }

    @Test func followingPersistsAndCannotTargetYourself() async throws {
        try await store.setFollowing(false, follower: "2", followee: "1")
        #expect(try await store.profile(of: "1", viewer: "2").viewerFollows == false)
        #expect(try await store.profile(of: "1", viewer: nil).followerCount == 4)
        await #expect(throws: ProfileError.notPermitted("You cannot follow yourself.")) {
            try await store.setFollowing(true, follower: "1", followee: "1")
        }
    }

    @Test func friendshipsMoveThroughTheirStates() async throws {
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

    @Test func exportAndImportRoundTrip() throws {
        let exported = try store.exportData()
        #expect(exported == DemoData.dataSet)
        let fresh = try SQLiteProfileStore.inMemory(seedDemoData: false)
        try fresh.importData(ProfileDataSet.decode(from: exported.encoded()))
        #expect(try fresh.exportData() == exported)
    }

    /// The streamed export is the same text as encoding the whole data set, for the demo
    /// data, for awkward text and for empty tables.
    @Test func streamedExportIsTheSameTextAsTheWholeEncoding() throws {
        var awkward = DemoData.dataSet
        awkward.users[0].name = "quote \" backslash \\ slash / NUL \u{0} tab \t é 中文 \u{7F}"
        awkward.users[1].avatarURL = "https://example.com/a.png"
        for dataSet in [DemoData.dataSet, awkward, ProfileDataSet(users: [User(id: "1", name: "Solo")])] {
            let fresh = try SQLiteProfileStore.inMemory(seedDemoData: false)
            try fresh.importData(dataSet)
            var streamed = ""
            try fresh.exportJSON { streamed += $0 }
            #expect(streamed == String(decoding: try fresh.exportData().encoded(), as: UTF8.self))
            #expect(try ProfileDataSet.decode(from: Data(streamed.utf8)) == dataSet.normalized())
        }
    }

    /// A large export arrives in bounded chunks while the tables are read, never as one
    /// string of everything.
    @Test func aLargeExportIsWrittenInBoundedChunks() throws {
        var dataSet = ProfileDataSet(users: [User(id: "1", name: "Prolific")])
        dataSet.blogs = (1...5_000).map {
            ProfileDataSet.BlogRecord(
                id: Int64($0), author: "1", title: "Post \($0)", body: String(repeating: "words ", count: 20),
                createdAt: Date(timeIntervalSince1970: 1_700_000_000))
        }
        let fresh = try SQLiteProfileStore.inMemory(seedDemoData: false)
        try fresh.importData(dataSet)
        var chunks: [Int] = []
        var text = ""
        try fresh.exportJSON { chunk in
            chunks.append(chunk.utf8.count)
            text += chunk
        }
        #expect(chunks.count > 10)
        #expect(chunks.allSatisfy { $0 < 70_000 })
        #expect(try ProfileDataSet.decode(from: Data(text.utf8)).blogs.count == 5_000)
    }

    /// A write that fails stops the export and is what it throws.
    @Test func aFailingWriteStopsTheExport() throws {
        struct DiskFull: Error {}
        var calls = 0
        #expect(throws: DiskFull.self) {
            try store.exportJSON { _ in
                calls += 1
                throw DiskFull()
            }
        }
        #expect(calls == 1)
    }

    @Test func textWithNULCharactersIsKeptWhole() throws {
        var data = DemoData.dataSet
        data.users[0].name = "Alice\u{0000} and the hidden rest"
        data.users.append(User(id: "x\u{0}1", name: "one", avatarURL: nil, summary: ""))
        data.users.append(User(id: "x\u{0}2", name: "two", avatarURL: nil, summary: ""))
        let fresh = try SQLiteProfileStore.inMemory(seedDemoData: false)
        try fresh.importData(data)
        let exported = try fresh.exportData()
        #expect(exported.users.first { $0.id == "1" }?.name == "Alice\u{0000} and the hidden rest")
        #expect(Set(exported.users.map(\.id)).isSuperset(of: ["x\u{0}1", "x\u{0}2"]), "ids that differ after a NUL stay two users")
    }

    @Test func anInvalidImportListsEveryProblemAndChangesNothing() throws {
        var broken = DemoData.dataSet
        broken.blogs.append(.init(id: 1, author: "42", title: "dup", body: "", createdAt: Date()))
        broken.follows.append(.init(follower: "3", followee: "3"))
        #expect(
            throws: ProfileError.invalidData([
                DataProblem(path: "blogs[40].id", message: "1 is used twice; ids must be unique."),
                DataProblem(path: "blogs[40].author", message: "names the user '42', who is not in \"users\"."),
                DataProblem(path: "follows[10]", message: "a user cannot follow themselves."),
            ])
        ) {
            try store.importData(broken)
        }
        #expect(try store.exportData() == DemoData.dataSet)
    }

    @Test(arguments: [
        (#"{"users": 5}"#, "users", "must be an array; fix that value."),
        (
            #"{"users": [{"id": "1", "name": "A", "summary": ""}], "blogs": [{"id": 1, "author": "1", "title": "t", "body": "", "createdAt": "yesterday"}]}"#,
            "blogs[0]", "Expected date string to be ISO8601-formatted."
        ),
        (#"{"users": [{"id": "1", "summary": ""}]}"#, "users[0]", "lacks the key \"name\"; add it."),
        (#"{"format": "scenery.profile-data", "version": 1}"#, "", "lacks the key \"users\"; add it."),
    ])
    func decodingErrorsNameThePath(json: String, path: String, message: String) {
        #expect(throws: ProfileError.invalidData([DataProblem(path: path, message: message)])) {
            try ProfileDataSet.decode(from: Data(json.utf8))
        }
    }

    @Test func notJSONAtAllIsReported() {
        #expect {
            try ProfileDataSet.decode(from: Data("{ not json".utf8))
        } throws: { error in
            guard let error = error as? ProfileError, error.kind == .invalidData else { return false }
            let problems = error.problems
            return problems.count == 1 && problems[0].message.hasPrefix("This is not valid JSON")
        }
    }

    @Test func aFileDatabasePersistsAndIsSeededOnce() async throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "scenery-\(UUID().uuidString)/demo.sqlite").path
        defer { try? FileManager.default.removeItem(atPath: URL(filePath: path).deletingLastPathComponent().path) }
        do {
            let store = try SQLiteProfileStore(path: path, createsDirectory: true)
            _ = try await store.setLiked(true, blog: 2, by: "5")
        }
        let reopened = try SQLiteProfileStore(path: path)
        #expect(try await reopened.blog(2, viewer: "5").likedByViewer, "the like persisted")
        #expect(try reopened.exportData().users.count == DemoData.dataSet.users.count, "not seeded twice")
    }

    @Test func refusesADatabaseFromTheFuture() throws {
        let path = FileManager.default.temporaryDirectory.appending(path: "scenery-\(UUID().uuidString).sqlite").path
        defer { try? FileManager.default.removeItem(atPath: path) }
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA user_version = 99")
        }
        #expect {
            try SQLiteProfileStore(path: path)
        } throws: { error in
            guard let error = error as? ProfileError, error.kind == .storage else { return false }
            let message = error.message
            return message.contains("has schema version 99, newer than this program knows")
        }
    }
}

@Suite struct StoreRobustnessTests {
    func temporaryPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appending(path: "scenery-store-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appending(path: "demo.sqlite").path
    }

    @Test func tenFirstRunsAtOnceMakeOneSeededDatabase() async throws {
        let path = try temporaryPath()
        let results = await withTaskGroup(of: Result<Int, ProfileError>.self) { group in
            for _ in 0..<10 {
                group.addTask {
                    do throws(ProfileError) {
                        return .success(try SQLiteProfileStore(path: path).exportData().users.count)
                    } catch {
                        return .failure(error)
                    }
                }
            }
            return await group.reduce(into: []) { $0.append($1) }
        }
        #expect(results.allSatisfy { (try? $0.get()) == DemoData.dataSet.users.count }, "\(results)")
    }

    @Test func aHalfMadeFirstRunIsFinishedNotLeftEmpty() throws {
        let path = try temporaryPath()
        do {
            // What a first run cut off between the schema and the seed left before: version 1, no users.
            let connection = try SQLiteConnection(path: path)
            try connection.execute(Migrations.steps[0])
            try connection.execute("PRAGMA user_version = 1")
        }
        #expect(try SQLiteProfileStore(path: path).exportData().users.count == DemoData.dataSet.users.count)
    }

    @Test func aSchemaVersionThisProgramDoesNotKnowIsAnErrorNamingTheFile() throws {
        let path = try temporaryPath()
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA user_version = -5")
        }
        #expect {
            try SQLiteProfileStore(path: path)
        } throws: { error in
            guard let error = error as? ProfileError, error.kind == .storage else { return false }
            let message = error.message
            return message.contains("'\(path)' has schema version -5")
        }
    }

    @Test func valuesThisProgramDidNotWriteAreErrorsNamingTheRowNotCrashes() throws {
        let path = try temporaryPath()
        _ = try SQLiteProfileStore(path: path)
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("PRAGMA foreign_keys = OFF; UPDATE likes SET blog = 1e300 WHERE rowid = (SELECT min(rowid) FROM likes)")
        }
        #expect {
            try SQLiteProfileStore(path: path).exportData()
        } throws: { error in
            guard let error = error as? ProfileError, error.kind == .storage else { return false }
            let message = error.message
            return message.contains("'\(path)' holds 1e+300 in likes, row") && message.contains("column blog, which must be an integer")
        }
        do {
            let connection = try SQLiteConnection(path: path)
            try connection.execute("DELETE FROM likes WHERE blog = 1e300; UPDATE blogs SET created_at = 1e300 WHERE id = 4")
        }
        #expect {
            try SQLiteProfileStore(path: path).exportData()
        } throws: { error in
            guard let error = error as? ProfileError, error.kind == .storage else { return false }
            let message = error.message
            return message.contains("column created_at, which must be a date between the years 1 and 9999")
        }
    }
}
