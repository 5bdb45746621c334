import Foundation
import ProfileDemoDomain
import SceneryLive
import ScenerySiteStore
import Synchronization
import Testing

@testable import ProfileDemoStore

/// The SQLite store's change feed: what it announces, to whom, across connections and
/// processes, and what happens when its table is damaged.
@Suite(.timeLimit(.minutes(5))) struct ChangeFeedTests {
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
            _ = try connection.run("INSERT INTO changes (entity, key, app) VALUES ('blog', '27', 'profile')")
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
        try await other.withConnection { connection throws(ProfileError) in
            _ = try connection.run("INSERT INTO changes (entity, key, app) VALUES ('blog', 'twenty-six', 'profile')")
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
            _ = try connection.run("INSERT INTO changes (id, entity, key, app) VALUES (9223372036854775807, 'blog', '27', 'profile')")
        }
        let likes = try await server.blog(26, viewer: nil).likes
        for viewer in ["2", "3"] {
            // Every later write used to fail as "database or disk is full".
            _ = try await server.setLiked(true, blog: 26, by: UserID(viewer))
        }
        #expect(try await server.blog(26, viewer: nil).likes == likes + 2)
        #expect(await recorder.wait(for: .everything), "the feed started again: pages fetch what they show")
        let last = try await server.withConnection { connection throws(ProfileError) in try SQLiteProfileStore.lastChangeID(connection) }
        #expect(last < 100, "numbered from 1 again: \(last)")
        // Another process's write after the renumbering still reaches the server's pages.
        let watcher = ChangeRecorder(server, following: [.blog(28)])
        _ = try await other.setLiked(true, blog: 28, by: "2")
        #expect(await watcher.wait(for: .blog(28)))
    }

    @Test func aDatabaseFromBeforeTheSiteStoreOpensAndItsChangesStillReachPages() async throws {
        let path = try temporaryPath()
        let server = try SQLiteProfileStore(path: path)
        // As a version from before the site store left it: a change table without apps, its
        // tables' version in `PRAGMA user_version` alone.
        try server.writeUnseen { connection throws(ProfileError) in
            _ = try connection.run("ALTER TABLE changes DROP COLUMN app")
            _ = try connection.run("DELETE FROM site_schema WHERE app = 'profile'")
        }
        let other = try SQLiteProfileStore(path: path)  // the new version opens it: the column is added
        let recorder = ChangeRecorder(other, following: [.blog(26)])
        try server.writeUnseen { connection throws(ProfileError) in
            _ = try connection.run("INSERT INTO changes (entity, key) VALUES ('blog', '26')")  // as an older program writes
        }
        #expect(await recorder.wait(for: .blog(26)), "a row written without an app is the profile's")
    }

    @Test func aDeletedChangesTableIsAnErrorNamingTheDatabaseAndOpeningItAgainMakesTheTable() async throws {
        let path = try temporaryPath()
        let server = try SQLiteProfileStore(path: path)
        let recorder = ChangeRecorder(server, following: [.blog(26)])
        let likes = try await server.blog(26, viewer: nil).likes
        try await server.withConnection { connection throws(ProfileError) in try connection.execute("DROP TABLE changes") }
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
