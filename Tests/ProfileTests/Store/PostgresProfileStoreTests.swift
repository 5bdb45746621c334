import Foundation
import ProfileDemoDomain
import ProfileDemoStore
import ProfileDemoStorePostgres
import Scenery
import SceneryExperiments
import ScenerySiteStorePostgres
import Testing

/// What only the PostgreSQL store does: its URL, its own errors, and surviving a server and a
/// listening connection that go away (on a real PostgreSQL server of the test's own).
@Suite(.timeLimit(.minutes(5))) struct PostgresProfileStoreTests {
    @Test(arguments: [
        ("mysql://u@h/db", "is not a PostgreSQL URL"),
        ("postgres://127.0.0.1/db", "names no user"),
        ("postgres://u@127.0.0.1", "names no database"),
        ("postgres://u@127.0.0.1/db?sslmode=maybe", "sslmode=maybe; use one of disable, prefer, require"),
        ("postgres://u@127.0.0.1/db?pool=3", "the parameter 'pool', which scenery does not know"),
    ])
    func aMalformedURLSaysWhatIsWrong(url: String, message: String) {
        #expect {
            _ = try PostgresURL(url)
        } throws: { error in
            (error as? ProfileError)?.message.contains(message) == true
        }
    }

    @Test func aURLsPasswordIsNeverInMessages() throws {
        let url = try PostgresURL("postgresql://reader:s3cret@db.example:6543/profiles?sslmode=require")
        #expect(url.redacted == "postgres://reader:***@db.example:6543/profiles?sslmode=require")
        #expect(url.password == "s3cret" && url.port == 6543)
        #expect {
            _ = try PostgresURL("postgres://reader:s3cret@/profiles")
        } throws: { error in
            let message = (error as? ProfileError)?.message ?? ""
            return message.contains("names no host") && !message.contains("s3cret")
        }
    }

    @Test func aServerThatIsNotThereIsAConnectionLostErrorNamingTheURLWithoutItsPassword() async throws {
        let port = try TestPostgres.freePort()
        let url = try PostgresURL("postgres://scenery:hunter2@127.0.0.1:\(port)/nothing?sslmode=disable")
        await #expect {
            _ = try await PostgresProfileStore.connect(to: url, timeout: .seconds(5))
        } throws: { error in
            guard let error = error as? ProfileError else { return false }
            return error.kind == .connectionLost && error.message.contains("127.0.0.1:\(port)") && !error.message.contains("hunter2")
        }
    }

    @Test func aMissingDatabaseSaysHowToCreateIt() async throws {
        let url = try await TestPostgres.sharedServer().url("no_such_database")
        await #expect {
            _ = try await PostgresProfileStore.connect(to: url)
        } throws: { error in
            (error as? ProfileError)?.message.contains("has no database 'no_such_database'; create it (createdb no_such_database)") == true
        }
    }

    @Test func textWithANULCharacterIsRefusedAtImportNamingThePlace() async throws {
        let store = try await StoreKind.postgres.seededStore()
        var data = DemoData.dataSet
        data.users[0].name = "Alice\u{0} and the hidden rest"
        await #expect(
            throws: ProfileError.invalidData([
                DataProblem(path: "users[0].name", message: "contains a NUL character (\\u0000), which PostgreSQL cannot store; remove it.")
            ])
        ) {
            try await store.importData(data)
        }
        #expect(try await store.exportData() == DemoData.dataSet, "nothing changed")
        await #expect(throws: ProfileError.self) { _ = try await store.profile(of: "x\u{0}1", viewer: nil) }
    }

    @Test func aSchemaFromTheFutureIsRefused() async throws {
        let server = try await TestPostgres.sharedServer()
        let url = try await server.newDatabase()
        _ = try await PostgresProfileStore.connect(to: url)
        try await server.execute("UPDATE site_schema SET version = 99 WHERE app = 'profile'", in: url.database)
        await #expect {
            _ = try await PostgresProfileStore.connect(to: url)
        } throws: { error in
            (error as? ProfileError)?.message.contains("has version 99 of the tables of the app 'profile', newer than this program knows") == true
        }
        // A database from before the site store, at a version from the future.
        try await server.execute(
            "DELETE FROM site_schema WHERE app = 'profile'; UPDATE store_info SET value = '99' WHERE key = 'schema_version'", in: url.database)
        await #expect {
            _ = try await PostgresProfileStore.connect(to: url)
        } throws: { error in
            (error as? ProfileError)?.message.contains("has schema version 99, which this program does not know") == true
        }
    }

    /// A database as the program made it before the profile was an app of the site store
    /// (its version in `store_info` only) is brought over once, keeping its data; one made
    /// before drafts had versions gets them.
    @Test func aDatabaseFromBeforeTheSiteStoreIsBroughtOverOnceKeepingItsData() async throws {
        let server = try await TestPostgres.sharedServer()
        let url = try await server.newDatabase()
        let first = try await PostgresProfileStore.connect(to: url)
        try await first.setSummary("Kept", of: "1", by: "1")
        await first.close()
        try await server.execute(
            "DELETE FROM site_schema WHERE app = 'profile'; ALTER TABLE drafts DROP COLUMN version; UPDATE store_info SET value = '2' WHERE key = 'schema_version'",
            in: url.database)
        let store = try await PostgresProfileStore.connect(to: url)
        #expect(try await store.profile(of: "1", viewer: nil).user.summary == "Kept", "its data, not seeded again")
        #expect(try await store.exportData().drafts.allSatisfy { $0.version == 1 }, "the step it lacked applied")
        let versions = try await store.site.reading("read the versions") { connection, logger in
            var versions: [Int] = []
            for try await version in try await connection.query("SELECT version FROM site_schema WHERE app = 'profile'", logger: logger).decode(Int.self) {
                versions.append(version)
            }
            return versions
        }
        #expect(versions == [2], "its steps counted where every app's are")
        await store.close()
    }

    @Test func serversStartingTogetherOnANewDatabaseSeedItOnce() async throws {
        let url = try await TestPostgres.sharedServer().newDatabase()
        try await withThrowingTaskGroup(of: Void.self) { group in
            for _ in 0..<6 { group.addTask { _ = try await PostgresProfileStore.connect(to: url) } }
            try await group.waitForAll()
        }
        let store = try await PostgresProfileStore.connect(to: url)
        #expect(try await store.exportData() == DemoData.dataSet)
    }

    /// A store whose pool is one connection, open. Its timeout is also the time to connect,
    /// which a busy test run can exceed: a connection timeout is tried again, up to 20 times.
    static func openOneConnectionStore(at url: PostgresURL, timeout: Duration) async throws -> (PostgresProfileStore, [UserID]) {
        var lastError = ProfileError.storage("not tried")
        for _ in 0..<20 {
            do {
                let store = try await PostgresProfileStore.connect(to: url, timeout: timeout, maximumConnections: 1)
                do {
                    return (store, try await store.allUsers().map(\.id))
                } catch {
                    await store.close()
                    lastError = error
                }
            } catch {
                lastError = error
            }
            guard lastError.kind == .connectionLost else { break }
        }
        throw lastError
    }

    /// More calls at once than the pool has connections, for longer than the timeout: the
    /// server answers all along, so they wait their turn instead of failing as if it were
    /// gone (under the thread sanitizer, 200 likes on eight connections did).
    @Test func aBurstLongerThanTheTimeoutWaitsItsTurnWhileTheServerAnswers() async throws {
        let url = try await TestPostgres.sharedServer().newDatabase()
        let (burst, users) = try await Self.openOneConnectionStore(at: url, timeout: .seconds(10))
        // 1,000 writes through one connection take longer than the timeout in the whole suite
        // (6 s alone here, 48 s in the whole suite, 80 s under the sanitizer, where a 1 s
        // timeout once saw a whole second pass with no write finished, and a 3 s one did on a
        // slower machine): every user
        // likes each of ten blogs, many times over. None may fail.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for index in 0..<1_000 {
                let (user, blog) = (users[index % users.count], BlogID(Int64(1 + index / users.count % 10)))
                group.addTask { _ = try await burst.setLiked(true, blog: blog, by: user) }
            }
            try await group.waitForAll()
        }
        for blog in 1...10 { #expect(try await burst.blog(BlogID(Int64(blog)), viewer: nil).likes == users.count) }
    }

    /// A seeded store that listens, a recorder of its changes to blog 26, another server's
    /// store on the same database, and the PostgreSQL server they share.
    private func listeningStoreBesideAnother() async throws -> (TestPostgres, PostgresProfileStore, PostgresProfileStore, ChangeRecorder) {
        let server = try await TestPostgres.sharedServer()
        let store = try await StoreKind.postgres.seededStore() as! PostgresProfileStore
        let other = try await PostgresProfileStore.connect(to: store.url)
        let recorder = ChangeRecorder(store, following: [.blog(26)])
        try await store.listen()
        return (server, store, other, recorder)
    }

    /// The listening connection is cut (as a network blip or a server-side kill would): the
    /// store listens again by itself, tells its subscribers to fetch everything (what changed
    /// meanwhile is unknown), and later changes arrive as before.
    @Test func aDroppedListeningConnectionResynchronisesItsSubscribers() async throws {
        let (server, store, other, recorder) = try await listeningStoreBesideAnother()
        try await server.execute(
            "SELECT pg_terminate_backend(pid) FROM pg_stat_activity WHERE datname = current_database() AND query LIKE 'LISTEN%'",
            in: store.url.database)
        #expect(await recorder.wait(for: .everything), "told its subscribers to fetch again")
        try await store.listen()  // returns once it listens again
        _ = try await other.setLiked(true, blog: 26, by: "2")
        #expect(await recorder.wait(for: .blog(26)), "and hears changes again")
    }

    /// While the store listens, a read is made once per change: a write nobody announces
    /// (made behind the store's back) is not seen until the next change is heard, and then
    /// it is. What this shows is that the answer was kept, not read again.
    @Test func whileListeningABlogIsReadOncePerChangeAndAgainAfterEachChange() async throws {
        let (server, store, other, recorder) = try await listeningStoreBesideAnother()
        let before = try await store.blog(26, viewer: nil)
        try await server.execute("UPDATE blogs SET title = 'Written behind its back' WHERE id = 26", in: store.url.database)
        #expect(try await store.blog(26, viewer: nil).title == before.title, "the answer kept since the last change")
        #expect(try await store.blog(26, viewer: "2").title == "Written behind its back", "another viewer's question is read")
        let likes = try await other.setLiked(true, blog: 26, by: "5")
        #expect(await recorder.wait(for: .blog(26)))
        let after = try await store.blog(26, viewer: nil)
        #expect(after.title == "Written behind its back" && after.likes == likes && likes == before.likes + 1)
        await other.close()
    }

    @Test func aStoreThatDoesNotListenReadsEveryTime() async throws {
        // It would not hear another server's change, so it keeps no answer.
        let server = try await TestPostgres.sharedServer()
        let store = try await StoreKind.postgres.seededStore() as! PostgresProfileStore
        _ = try await store.blog(26, viewer: nil)
        try await server.execute("UPDATE blogs SET title = 'Written behind its back' WHERE id = 26", in: store.url.database)
        #expect(try await store.blog(26, viewer: nil).title == "Written behind its back")
    }

    /// PostgreSQL itself goes away (killed) and comes back: a call meanwhile is a
    /// `connectionLost` error, not a crash or a hang; afterwards calls work again and the
    /// subscribers fetch everything once the listener is back.
    @Test func aServerKilledAndRestartedIsAConnectionLostErrorThenRecovers() async throws {
        let server = try await TestPostgres()

        let url = try await server.newDatabase()
        let store = try await PostgresProfileStore.connect(to: url)
        let recorder = ChangeRecorder(store, following: [.blog(26)])
        try await store.listen()
        try await server.stop(immediately: true)
        await #expect {
            _ = try await store.setLiked(true, blog: 26, by: "2")
        } throws: { error in
            (error as? ProfileError)?.kind == .connectionLost
        }
        #expect(await recorder.wait(for: .everything), "the listener lost the server and told its subscribers")
        try await server.start()
        // `listen()` answers with the listener's next attempt, which may have begun while the
        // server was still starting up (under load it does): wait for an attempt that listens.
        var listening = false
        for _ in 0..<30 where !listening { listening = (try? await store.listen()) != nil }
        #expect(listening, "the listener listens again once the server is back")
        #expect(try await store.setLiked(true, blog: 26, by: "2") >= 1)
        #expect(await recorder.wait(for: .blog(26)))
        try await server.stop()
    }

    // MARK: - Parts

    /// A guestbook beside the profile, on the same database.
    struct GuestbookData: Codable, Sendable, Equatable {
        var messages: [String]
    }

    static let guestbookTables = PostgresSiteSchema(app: "guestbook", steps: ["CREATE TABLE guestbook_messages (id BIGSERIAL PRIMARY KEY, text TEXT NOT NULL)"])

    static let guestbookData = PostgresDataSet(
        app: "guestbook", empty: GuestbookData(messages: []),
        read: { connection, logger in
            var messages: [String] = []
            for try await text in try await connection.query("SELECT text FROM guestbook_messages ORDER BY id", logger: logger).decode(String.self) {
                messages.append(text)
            }
            return GuestbookData(messages: messages)
        },
        replace: { data, connection, logger in
            try await connection.query("DELETE FROM guestbook_messages", logger: logger)
            for (index, text) in data.messages.enumerated() {
                guard !text.isEmpty else { throw DataError.invalidData([DataProblem(path: "messages[\(index)]", message: "is empty.")]) }
                try await connection.query("INSERT INTO guestbook_messages (text) VALUES (\(text))", logger: logger)
            }
            return "\(data.messages.count) messages"
        })

    func export(_ store: PostgresProfileStore) async throws -> String {
        var text = ""
        try await store.exportData(of: [store.partData, Self.guestbookData]) { text += $0 }
        return text
    }

    @Test func aPartsTablesAndDataLiveBesideTheProfilesAndAnImportIsOneTransactionOverBoth() async throws {
        let url = try await TestPostgres.sharedServer().newDatabase()
        let store = try await PostgresProfileStore.connect(to: url, parts: [Self.guestbookTables])
        let parts: [any PartData] = [store.partData, Self.guestbookData]
        let contents = try await store.replaceData(of: parts, with: ["profile": DemoData.dataSet.encoded(), "guestbook": Data(#"{"messages": ["Hi"]}"#.utf8)])
        #expect(contents == [DemoData.dataSet.contentsInWords, "1 messages"])
        let before = try await export(store)
        #expect(before.contains(#""guestbook": {"messages":["Hi"]}"#), "\(before.prefix(300))")

        let broken = ["profile": ProfileDataSet(users: []).encoded(), "guestbook": Data(#"{"messages": ["Hello", ""]}"#.utf8)]
        let error = await #expect(throws: DataError.self) { try await store.replaceData(of: parts, with: broken) }
        #expect(error?.problems.map(\.path) == ["parts.guestbook.messages[1]"])
        #expect(try await export(store) == before, "the profile, emptied first in the transaction, is as it was")

        let other = try await PostgresProfileStore.connect(to: TestPostgres.sharedServer().newDatabase(), parts: [Self.guestbookTables])
        _ = try await other.replaceData(of: parts, with: try Self.sections(of: before))
        #expect(try await export(other) == before, "exported and imported whole")
        await store.close()
        await other.close()
    }

    /// Each part's section of a data file.
    static func sections(of file: String) throws -> [String: Data] {
        let object = try JSONSerialization.jsonObject(with: Data(file.utf8)) as? [String: Any]
        let parts = object?["parts"] as? [String: Any] ?? [:]
        return try parts.mapValues { try JSONSerialization.data(withJSONObject: $0) }
    }
}
