import Foundation
import ProfileDomain
import Synchronization
import Testing

@testable import ProfileStore

/// The SQLite store's change feed: what it announces, to whom, across connections and
/// processes, and what happens when its table is damaged.
@Suite(.timeLimit(.minutes(1))) struct ChangeFeedTests {
    func temporaryPath() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appending(path: "scenery-feed-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appending(path: "demo.sqlite").path
    }

    @Test func aWriteIsAnnouncedToTheSubscribersOfWhatItChangedAndAFailedOneIsNot() async throws {
        let store = try SQLiteProfileStore.inMemory()
        let blog26 = ChangeRecorder(store, following: [.blog(26)])
        let blog27 = ChangeRecorder(store, following: [.blog(27)])
        let follows = ChangeRecorder(store, following: [.profile("1")])
        await #expect(throws: ProfileError.self) { _ = try await store.setLiked(true, blog: 999_999, by: "2") }
        _ = try await store.setLiked(true, blog: 26, by: "2")
        #expect(await blog26.wait(for: .blog(26)))
        #expect(blog26.changes == [.blog(26)], "the failed write announced nothing")
        try await store.setFollowing(false, follower: "2", followee: "1")
        #expect(await follows.wait(for: .profile("1")))
        #expect(blog27.changes.isEmpty, "a change wakes only the subscribers of its entity")
        #expect(follows.changes == [.profile("1")])
    }

    @Test func anotherConnectionsWriteReachesSubscribers() async throws {
        let path = try temporaryPath()
        let server = try SQLiteProfileStore(path: path)
        let other = try SQLiteProfileStore(path: path)  // another process, as SQLite sees it
        let recorder = ChangeRecorder(server, following: [.blog(26), .drafts(of: "1")])
        _ = try await other.setLiked(true, blog: 26, by: "2")
        #expect(await recorder.wait(for: .blog(26)))
        var data = try other.exportData()
        data.drafts.append(Draft(id: 50, owner: "1", title: "From the other process", body: "", editedAt: Date()))
        try other.importData(data)
        #expect(await recorder.wait(for: .everything), "an import changes anything: everyone fetches again")
    }

    @Test func aChangeRemovedBeforeItWasReadMakesSubscribersFetchEverything() async throws {
        let path = try temporaryPath()
        let server = try SQLiteProfileStore(path: path)
        let other = try SQLiteProfileStore(path: path)
        let recorder = ChangeRecorder(server, following: [.blog(26)])
        // A change recorded and removed before the server looked (a burst past the bound, or
        // someone cleaning the table).
        try other.writeUnseen { connection throws(ProfileError) in
            _ = try connection.run("INSERT INTO changes (entity, key) VALUES ('blog', '27')")
            _ = try connection.run("DELETE FROM changes")
        }
        _ = try await other.setLiked(true, blog: 26, by: "3")
        #expect(await recorder.wait(for: .everything), "a change it never read: fetch everything rather than miss it")
    }

    @Test func aTamperedRowMakesSubscribersFetchEverything() async throws {
        let path = try temporaryPath()
        let server = try SQLiteProfileStore(path: path)
        let other = try SQLiteProfileStore(path: path)
        let recorder = ChangeRecorder(server, following: [.blog(26)])
        try other.withConnection { connection throws(ProfileError) in
            _ = try connection.run("INSERT INTO changes (entity, key) VALUES ('blog', 'twenty-six')")
        }
        #expect(await recorder.wait(for: .everything))
    }

    @Test func aChangeNumberedIntMaxStartsTheFeedAgainAndWritesGoOn() async throws {
        let path = try temporaryPath()
        let server = try SQLiteProfileStore(path: path)
        let other = try SQLiteProfileStore(path: path)
        let recorder = ChangeRecorder(server, following: [.blog(26)])
        // A row no write of this program makes: the table's numbering is used up.
        try other.writeUnseen { connection throws(ProfileError) in
            _ = try connection.run("INSERT INTO changes (id, entity, key) VALUES (9223372036854775807, 'blog', '27')")
        }
        let likes = try await server.blog(26, viewer: nil).likes
        for viewer in ["2", "3"] {
            // Every later write used to fail as "database or disk is full".
            _ = try await server.setLiked(true, blog: 26, by: UserID(viewer))
        }
        #expect(try await server.blog(26, viewer: nil).likes == likes + 2)
        #expect(await recorder.wait(for: .everything), "the feed started again: pages fetch what they show")
        let last = try server.withConnection { connection throws(ProfileError) in try SQLiteProfileStore.lastChangeID(connection) }
        #expect(last < 100, "numbered from 1 again: \(last)")
        // Another process's write after the renumbering still reaches the server's pages.
        let watcher = ChangeRecorder(server, following: [.blog(28)])
        _ = try await other.setLiked(true, blog: 28, by: "2")
        #expect(await watcher.wait(for: .blog(28)))
    }

    @Test func aDeletedChangesTableIsAnErrorNamingTheDatabaseAndOpeningItAgainMakesTheTable() async throws {
        let path = try temporaryPath()
        let server = try SQLiteProfileStore(path: path)
        let recorder = ChangeRecorder(server, following: [.blog(26)])
        let likes = try await server.blog(26, viewer: nil).likes
        try server.withConnection { connection throws(ProfileError) in try connection.execute("DROP TABLE changes") }
        do {
            _ = try await server.setLiked(true, blog: 26, by: "2")
            Issue.record("a write with no changes table must fail")
        } catch let error as ProfileError {
            #expect((error.errorDescription ?? "").contains(path), "\(error)")
            #expect((error.errorDescription ?? "").contains("'changes' table"), "\(error)")
            #expect((error.errorDescription ?? "").contains("nothing was written"), "\(error)")
        }
        #expect(try await server.blog(26, viewer: nil).likes == likes, "the like was rolled back with its announcement")
        _ = try SQLiteProfileStore(path: path)  // any command on the database
        _ = try await server.setLiked(true, blog: 26, by: "2")
        #expect(try await server.blog(26, viewer: nil).likes == likes + 1)
        #expect(await recorder.wait(for: .blog(26)))
    }
}

extension SQLiteProfileStore {
    /// Runs raw SQL on the store's connection, in a transaction of its own, as another
    /// program would (nothing announced).
    func writeUnseen(_ body: (SQLiteConnection) throws(ProfileError) -> Void) throws(ProfileError) {
        try withConnection { connection throws(ProfileError) in
            try connection.transaction { () throws(ProfileError) in try body(connection) }
        }
    }
}

/// How a subscriber that is busy receives what changed meanwhile.
@Suite struct FirstFollowTests {
    @Test func aFirstFollowSaysWhetherWhatItFollowsChangedSinceTheModuleWasMade() {
        let hub = ProfileChangeHub()
        let changed = LiveChanges(hub)
        let untouched = LiveChanges(hub)
        hub.publish([.blog(26), .profile("1")])
        #expect(changed.follow([.blog(26)]) { _ in }, "blog 26 changed since it was made")
        #expect(!untouched.follow([.blog(27)]) { _ in }, "blog 27 did not")
        #expect(!changed.follow([.blog(26), .blog(28)]) { _ in }, "only the first follow looks back")
        let beforeEverything = LiveChanges(hub)
        hub.publish([.everything])
        #expect(beforeEverything.follow([.blog(27)]) { _ in }, "everything changed")
    }

    @Test func aFeedThatForgotSaysItMayHaveChanged() {
        let hub = ProfileChangeHub()
        let old = LiveChanges(hub)
        hub.publish((0..<(2 * ProfileChangeHub.rememberedChanges + 1)).map { ProfileChange.blog(BlogID(rawValue: Int64(1000 + $0))) })
        #expect(old.follow([.blog(26)]) { _ in }, "the hub no longer remembers back to the module's start")
        #expect(!LiveChanges(nil).follow([.blog(26)]) { _ in }, "no feed: nothing to miss")
    }
}

@Suite(.timeLimit(.minutes(1))) struct ChangeMergingTests {
    @Test func aBusySubscriberGetsEachEntityOnceAndEverythingReplacesWhatWaits() async {
        let hub = ProfileChangeHub()
        var changes = hub.changes(to: [.blog(1), .blog(2)]).makeAsyncIterator()
        hub.publish(Array(repeating: ProfileChange.blog(1), count: 10) + [.blog(2), .blog(1), .blog(3)])
        #expect(await changes.next() == .blog(1))
        #expect(await changes.next() == .blog(2), "ten changes to blog 1 while busy are one; blog 3 is not followed")
        hub.publish([.blog(2), .everything, .blog(1)])
        #expect(await changes.next() == .everything, "everything replaces what waited, and what came after it")
        hub.publish([.blog(2)])
        #expect(await changes.next() == .blog(2))
    }

    @Test func everythingAfterAReconnectReachesSubscribersInWavesNotAllAtOnce() async {
        let hub = ProfileChangeHub()
        let subscriptions = (0..<95).map { hub.changes(to: [.blog(BlogID(rawValue: Int64($0)))]) }
        let mark = hub.changeMark ?? 0
        let waves = Mutex(0)
        await hub.publishEverything(inWavesOf: 10) { waves.withLock { $0 += 1 } }
        #expect(waves.withLock { $0 } == 9, "95 subscribers, ten at a time: nine pauses between ten waves")
        #expect(LiveChanges(hub).follow([.blog(7)]) { _ in } == false, "a module made after it has nothing to catch up")
        #expect(hub.hasChanged([.blog(7)], since: mark), "it counts as published at once")
        for changes in subscriptions {
            var iterator = changes.makeAsyncIterator()
            #expect(await iterator.next() == .everything, "and every subscriber is told")
        }
    }

    @Test func cancellingTheIteratingTaskEndsTheSubscription() async {
        let hub = ProfileChangeHub()
        let changes = hub.changes(to: [.blog(1)])
        #expect(hub.subscriptionCount(for: .blog(1)) == 1)
        let task = Task {
            var received = 0
            for await _ in changes { received += 1 }
            return received
        }
        task.cancel()
        #expect(await task.value == 0)
        #expect(hub.subscriptionCount == 0, "the hub forgot the subscriber")
        hub.publish([.blog(1)])  // no one to deliver to; nothing kept
    }
}
