import Foundation
import ProfileDemoDomain
import Scenery
import ScenerySiteStore
import Testing

@testable import ProfileDemoStore

@Suite struct SQLiteProfileStoreTests {
    let store: SQLiteProfileStore

    init() throws {
        store = try SQLiteProfileStore.inMemory()
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

    @Test(arguments: [
        (#"{"users": 5}"#, "users", "must be an array; fix that value."),
        (
            #"{"users": [{"id": "1", "name": "A", "summary": ""}], "blogs": [{"id": 1, "author": "1", "title": "t", "body": "", "createdAt": "yesterday"}]}"#,
            "blogs[0].createdAt", #"'yesterday' is not an ISO 8601 date; write it as "2026-01-08T09:00:00Z" (UTC) or with an offset."#
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

    /// A database as the program made it before the profile was an app of the site store:
    /// its tables counted in `PRAGMA user_version`, the site's among them, changes without apps.
    func legacyDatabase(at path: String, version: Int) throws {
        let connection = try SQLiteConnection(path: path)
        try connection.execute(Migrations.steps[0])
        if version >= 2 { try connection.execute(Migrations.steps[1]) }
        if version >= 3 {
            try connection.execute("CREATE TABLE changes (id INTEGER PRIMARY KEY AUTOINCREMENT, entity TEXT NOT NULL, key TEXT NOT NULL DEFAULT '')")
        }
        if version >= 5 { try connection.execute("CREATE TABLE applied_actions (key TEXT PRIMARY KEY NOT NULL, at REAL NOT NULL) WITHOUT ROWID") }
        if version >= 6 { try connection.execute(Migrations.steps[2]) }
        try connection.execute("INSERT INTO users (id, name) VALUES ('9', 'Old Friend')")
        if version >= 3 { try connection.execute("INSERT INTO changes (entity, key) VALUES ('profile', '9')") }
        try connection.execute("PRAGMA user_version = \(version)")
    }

    @Test(arguments: [2, 5, 6])
    func aDatabaseFromBeforeTheSiteStoreIsBroughtOverOnceKeepingItsData(version: Int) async throws {
        let path = try temporaryPath()
        try legacyDatabase(at: path, version: version)
        let store = try SQLiteProfileStore(path: path)
        #expect(try store.exportData().users.map(\.name) == ["Old Friend"], "its data, not the demo's")
        let (site, columns, changeApps) = try await store.site.withConnection { connection throws(DataError) in
            (
                try connection.query("SELECT version FROM site_schema WHERE app = 'profile'").first?.first?.integer,
                try connection.query("SELECT name FROM pragma_table_info('drafts')").compactMap { $0.first?.text },
                try connection.query("SELECT DISTINCT app FROM changes").compactMap { $0.first?.text }
            )
        }
        #expect(site == Int64(Migrations.steps.count), "its steps counted where every app's are")
        #expect(columns.contains("version"), "the steps it lacked applied")
        #expect(changeApps == (version >= 3 ? ["profile"] : []), "its change rows are the profile's")
        _ = try await store.setSummary("Still here", of: "9", by: "9")
        _ = try SQLiteProfileStore(path: path)  // a second open finds nothing to do
        #expect(try SQLiteProfileStore(path: path).exportData().users.first?.summary == "Still here")
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
