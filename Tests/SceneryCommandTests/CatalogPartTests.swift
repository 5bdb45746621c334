import Foundation
import ProfileDemoStore
import ProfileDemoTool
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
        #expect(
            error?.description.contains("The tables of the part 'guestbook' could not be brought up to date in the database") == true,
            "\(String(describing: error))")
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

    // MARK: - Data

    /// The guestbook's data set, as a data file holds it.
    struct GuestbookData: Codable, Sendable, Equatable {
        struct Message: Codable, Sendable, Equatable {
            var author: String
            var text: String
        }
        var messages: [Message]
    }

    static let guestbookData = SiteDataSet(
        app: "guestbook", empty: GuestbookData(messages: []), demo: GuestbookData(messages: [.init(author: "1", text: "Welcome!")]),
        read: { connection throws(DataError) in
            GuestbookData(
                messages: try connection.query("SELECT author, text FROM guestbook_messages ORDER BY id").map {
                    GuestbookData.Message(author: $0[0].text ?? "", text: $0[1].text ?? "")
                })
        },
        replace: { data, connection throws(DataError) in
            try connection.run("DELETE FROM guestbook_messages")
            for (index, message) in data.messages.enumerated() {
                guard !message.text.isEmpty else {
                    throw .invalidData([DataProblem(path: "messages[\(index)].text", message: "is empty; a message has 1 to 280 characters.")])
                }
                try connection.run("INSERT INTO guestbook_messages (author, text) VALUES (?, ?)", [.text(message.author), .text(message.text)])
            }
            return "\(data.messages.count) messages"
        })

    static let guestbookPart = ModuleCatalog(modules: []) { _, _ in }.addingTables(guestbookTables).addingData(guestbookData)

    /// The profile's demo database with the guestbook beside it.
    func guestbookDatabase() async throws -> (path: String, store: any ToolStore) {
        let path = try temporaryDatabase()
        return (path, try await open(path, with: .profile + Self.guestbookPart))
    }

    func messages(in store: any ToolStore) async throws -> [String] {
        let site = try #require(try ToolServices(store: store).siteStore() as? SQLiteSiteStore)
        return try await site.withConnection { connection throws(DataError) in
            try connection.query("SELECT text FROM guestbook_messages ORDER BY id").map { $0[0].text ?? "" }
        }
    }

    func export(_ store: any ToolStore) async throws -> Data {
        var text = ""
        try await store.exportWholeData(with: [Self.guestbookData]) { text += $0 }
        return Data(text.utf8)
    }

    @Test func anExportHoldsEveryPartsDataAndAnImportPutsBackEachPartsRows() async throws {
        let (_, store) = try await guestbookDatabase()
        #expect(try await store.resetWholeData(with: [Self.guestbookData]) == "\(DemoData.dataSet.contentsInWords); guestbook: 1 messages")
        let file = try await export(store)
        let object = try #require(try JSONSerialization.jsonObject(with: file) as? [String: Any])
        #expect(object["format"] as? String == "scenery.site-data")
        #expect((object["parts"] as? [String: Any])?.keys.sorted() == ["guestbook", "profile"])

        let (_, other) = try await guestbookDatabase()
        _ = try await other.importWholeData(file, with: [Self.guestbookData])
        #expect(try await messages(in: other) == ["Welcome!"])
        #expect(try await export(other) == file, "the same data set, written the same way")
    }

    @Test func aProblemInOnePartsSectionChangesNoPartAndIsPointedAtUnderThePart() async throws {
        let (_, store) = try await guestbookDatabase()
        let before = try await export(store)
        var object = try #require(try JSONSerialization.jsonObject(with: before) as? [String: Any])
        var parts = try #require(object["parts"] as? [String: Any])
        parts["guestbook"] = ["messages": [["author": "2", "text": "Hello"], ["author": "2", "text": ""]]]
        var profile = try #require(parts["profile"] as? [String: Any])
        profile["users"] = [["id": "9", "name": "Only one", "summary": ""]]
        profile["blogs"] = []
        profile["likes"] = []
        profile["drafts"] = []
        profile["follows"] = []
        profile["friendships"] = []
        parts["profile"] = profile
        object["parts"] = parts
        let error = await #expect(throws: DataError.self) {
            try await store.importWholeData(try JSONSerialization.data(withJSONObject: object), with: [Self.guestbookData])
        }
        #expect(error?.problems.map(\.path) == ["parts.guestbook.messages[1].text"])
        #expect(try await export(store) == before, "neither the profile's rows (written first) nor the guestbook's changed")
    }

    @Test func aSectionOfAPartTheAppLacksIsRefusedAndNothingIsImported() async throws {
        let (_, store) = try await guestbookDatabase()
        let before = try await export(store)
        var object = try #require(try JSONSerialization.jsonObject(with: before) as? [String: Any])
        var parts = try #require(object["parts"] as? [String: Any])
        parts["polls"] = ["questions": []]
        object["parts"] = parts
        let error = await #expect(throws: DataError.self) {
            try await store.importWholeData(try JSONSerialization.data(withJSONObject: object), with: [Self.guestbookData])
        }
        #expect(error?.problems.map(\.path) == ["parts.polls"])
        #expect(error?.problems.first?.message.contains("is data of a part this app lacks (it has 'profile', 'guestbook')") == true)
        #expect(try await export(store) == before)
    }

    @Test func aFileOfTheAppsOwnDataReplacesItAndLeavesThePartsData() async throws {
        let (_, store) = try await guestbookDatabase()
        _ = try await store.resetWholeData(with: [Self.guestbookData])
        var profileOnly = ""
        try await store.exportJSON { profileOnly += $0 }
        let contents = try await store.importWholeData(Data(profileOnly.utf8), with: [Self.guestbookData])
        #expect(contents == "\(DemoData.dataSet.contentsInWords) (the file holds the app's data only: the parts' data was left as it was)")
        #expect(try await messages(in: store) == ["Welcome!"])
    }

    @Test func aFileOfANewerVersionIsRefused() async throws {
        let (_, store) = try await guestbookDatabase()
        let file = Data(#"{"format": "scenery.site-data", "version": 2, "parts": {}}"#.utf8)
        let error = await #expect(throws: DataError.self) { try await store.importWholeData(file, with: [Self.guestbookData]) }
        #expect(error?.problems.map(\.path) == ["version"])
    }

    @Test func twoPartsRegisteringOneModuleTypeAreRefusedWithBothNamed() throws {
        let another = ModuleDescriptor(type: "UserInfoModule", summary: "Another part's module of that name.")
        let copy = ModuleCatalog(modules: [another, ModuleDescriptor(type: "PollModule", summary: "A poll.")]) { registry, _ in
            registry.register(another) { _, _ in throw SceneryError(.moduleCreationFailed, "not made") }
        }
        let services = ToolServices(store: ProfileToolStore(try SQLiteProfileStore.inMemory()))
        let error = #expect(throws: SceneryError.self) { try (.profile + copy).registry(services: services) }
        #expect(
            error?.message.hasPrefix("Two parts of this tool register the module type 'UserInfoModule': the part of ") == true, "\(String(describing: error))")
        #expect(error?.message.contains(", and the part of UserInfoModule, PollModule. The later would replace the other") == true)
    }
}
