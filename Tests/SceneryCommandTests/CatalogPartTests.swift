import Foundation
import ProfileStore
import ProfileTool
import Scenery
import SceneryExperiments
import ScenerySiteStore
import Testing

@testable import SceneryTool

/// A part of an app (a guestbook beside the profile) keeps its tables in the app's database:
/// the tool opens one store, with every part's tables, and the part's registration reaches
/// them through the store's site store.
@Suite struct CatalogPartTests {
    static let guestbookTables = SiteSchema(
        app: "guestbook", steps: ["CREATE TABLE guestbook_messages (id INTEGER PRIMARY KEY, author TEXT NOT NULL, text TEXT NOT NULL)"])

    /// A part with no modules whose registration keeps the site store it was given.
    static func guestbook(keepingSiteIn reached: Locked<(any SiteStore)?>) -> ModuleCatalog {
        ModuleCatalog(modules: []) { _, services in
            let site = try services.siteStore()
            reached.withLock { $0 = site }
        }
    }

    /// A kind of schema for a database of another kind, which a SQLite file cannot take.
    struct ElsewhereSchema: PartSchema {
        let app: String
    }

    func temporaryDatabase() throws -> String {
        let directory = FileManager.default.temporaryDirectory.appending(path: "scenery-parts-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory.appending(path: "demo.sqlite").path
    }

    /// Opens `--database path` as the tool with `catalog` would.
    func open(_ path: String, with catalog: ModuleCatalog) async throws -> any ToolStore {
        try await ToolDatabase.$added.withValue(catalog.databases) {
            try await ModuleCatalog.$current.withValue(catalog) {
                try await DatabaseOptions.parse(["--database", path]).openStore()
            }
        }
    }

    @Test func aPartsTablesAreMadeInTheProfilesDatabaseAndItsRegistrationWritesThere() async throws {
        let path = try temporaryDatabase()
        let reached = Locked<(any SiteStore)?>(nil)
        let catalog = .profile + Self.guestbook(keepingSiteIn: reached).addingTables(Self.guestbookTables)
        let store = try await open(path, with: catalog)
        _ = try catalog.registry(services: ToolServices(store: store))
        let site = try #require(reached.withLock { $0 } as? SQLiteSiteStore, "the part is given the profile's SQLite site store")
        #expect(site.path == path)
        try await site.withConnection { connection throws(DataError) in
            try connection.run("INSERT INTO guestbook_messages (author, text) VALUES ('1', 'Lovely tea party')")
        }
        #expect(try await store.hasAccount("1"), "the profile's demo data is in the same database")
        let profile = try SQLiteProfileStore(path: path)
        let texts = try await profile.site.withConnection { connection throws(DataError) in try connection.query("SELECT text FROM guestbook_messages") }
        #expect(texts.map { $0[0].text } == ["Lovely tea party"], "the part's row is in the app's one database file")
    }

    @Test func aPartThatKeepsNoTablesForThisKindOfDatabaseIsRefusedByName() async throws {
        let path = try temporaryDatabase()
        let catalog = .profile + ModuleCatalog(modules: []) { _, _ in }.addingTables(ElsewhereSchema(app: "guestbook"))
        let error = await #expect(throws: CommandFailure.self) { try await open(path, with: catalog) }
        #expect(
            error?.description
                == "The part 'guestbook' keeps its tables in ElsewhereSchema only, not in a SiteSchema: it cannot run on this kind of database. Add a SiteSchema to its addingTables(_:), or use a database of the kind it supports."
        )
        #expect(!FileManager.default.fileExists(atPath: path), "nothing was made")
    }

    @Test func twoPartsDeclaringTheTablesOfOneAppAreRefused() async throws {
        let path = try temporaryDatabase()
        let part = ModuleCatalog(modules: []) { _, _ in }.addingTables(Self.guestbookTables)
        let error = await #expect(throws: CommandFailure.self) { try await open(path, with: .profile + part + part) }
        #expect(error?.description == "Two parts of this tool declare the tables of the app 'guestbook'; give each part's SiteSchema a name of its own.")
        #expect(!FileManager.default.fileExists(atPath: path), "nothing was made")
    }

    @Test func aPartsFailingStepNamesItAndLeavesTheProfilesDatabaseAsItWas() async throws {
        let path = try temporaryDatabase()
        _ = try await open(path, with: .profile)
        let broken = ModuleCatalog(modules: []) { _, _ in }
            .addingTables(SiteSchema(app: "guestbook", steps: ["CREATE TABLE guestbook_messages (id INTEGER PRIMARY KEY)", "CREATE TABLE ("]))
        let error = await #expect(throws: CommandFailure.self) { try await open(path, with: .profile + broken) }
        #expect(error?.description.contains("The tables of the part 'guestbook' could not be brought up to date in the database") == true, "\(String(describing: error))")
        let profile = try SQLiteProfileStore(path: path)
        let tables = try await profile.site.withConnection { connection throws(DataError) in
            try connection.query("SELECT name FROM sqlite_master WHERE name LIKE 'guestbook%'")
        }
        #expect(tables.isEmpty, "the guestbook's first step was rolled back with the one that failed")
    }

    @Test func aToolWithoutADatabaseTellsAPartThatNeedsOneWhatToDo() throws {
        let services = ToolServices(store: MemoryToolStore())
        let error = #expect(throws: SceneryError.self) { try services.siteStore() }
        #expect(error?.message.contains("is built on no site store; name a database kind built on SQLiteSiteStore or PostgresSiteStore") == true)
    }
}
