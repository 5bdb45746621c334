import Foundation
import ProfileDemoDomain
import ProfileDemoTool
import Scenery
import SceneryServeTool
import SceneryServer
import SceneryServerTesting
import ScenerySiteStore
import SceneryTesting
import SceneryTool
import Testing

@testable import Guestbook
@testable import guestbook

/// The module over its SQLite store: visitors sign, the owner deletes, a forged deletion is
/// refused before the module acts, and a message the form would refuse is refused again.
@Suite struct GuestbookModuleTests {
    let book = SQLiteGuestbook(try! SQLiteSiteStore(path: ":memory:", schemas: [SQLiteGuestbook.tables]))

    func harness(viewer: String?) throws -> ModuleHarness<GuestbookModule> {
        try ModuleHarness(GuestbookModule.self, parameters: ["owner": "1"], viewer: viewer) { [book] in
            try GuestbookModule(parameters: $0, context: $1, book: book)
        }
    }

    func texts() async throws -> [String] { try await book.messages(in: "1", page: PageRequest(limit: 9)).items.map(\.text) }

    @Test func aVisitorSignsAndTheMessageIsShownAndStored() async throws {
        let harness = try harness(viewer: "2")
        try await harness.load { try RenderExpectation.shows("2: Lovely tea party!").verify($0) }
        try await harness.type("Hello, Alice", into: "sign.text")
        try await harness.submit("sign") { try RenderExpectation.shows("2: Hello, Alice").verify($0) }
        try await harness.receiveEvent("guestbook.sign")
        try await harness.receiveUpdate { _ in }
        try harness.finish()
        #expect(try await texts() == ["Hello, Alice", "Lovely tea party!"])
    }

    @Test func aMessageTheFormWouldRefuseIsRefusedByTheModuleToo() async throws {
        let harness = try harness(viewer: "2")
        try await harness.load { try RenderExpectation.shows("2: Lovely tea party!").verify($0) }
        try await harness.send(GuestbookModule.sign.event(.init(text: String(repeating: "a", count: 281)), from: "sign")) {
            try RenderExpectation.showsError("Sign the guestbook is at most 280 characters; it has 281.", onField: "sign.text").verify($0)
        }
        try await harness.receiveEvent("guestbook.sign")
        try await harness.receiveUpdate { _ in }
        try harness.finish()
        #expect(try await texts() == ["Lovely tea party!"])
    }

    @Test func aForgedDeletionFromAVisitorIsRefusedBeforeTheModuleActs() async throws {
        let harness = try harness(viewer: "2")
        try await harness.load { try RenderExpectation.lacksNode("m.1.delete").verify($0) }
        try await harness.send(GuestbookModule.delete.event(.init(message: 1, author: "2"), from: "m.1.delete"))
        try await harness.receiveEvent("guestbook.delete")
        try await harness.receiveRefusal()
        try harness.finish()
        #expect(try await texts() == ["Lovely tea party!"])
    }

    @Test func theOwnerDeletesAMessage() async throws {
        let harness = try harness(viewer: "1")
        try await harness.load { try RenderExpectation.lacksNode("sign").verify($0) }
        try await harness.tap("m.1.delete") { try RenderExpectation.shows("No messages yet.").verify($0) }
        try await harness.receiveEvent("guestbook.delete")
        try await harness.receiveUpdate { _ in }
        try harness.finish()
    }

    @Test func theManifestIsTheOneTheToolGenerates() throws {
        let shipped = try #require(GuestbookScenes.directory?.appending(path: "guestbook.modules.json"))
        #expect(try String(contentsOf: shipped, encoding: .utf8) == ModuleManifest(modules: [GuestbookModule.descriptor]).jsonText())
    }
}

/// The package's tool keeps the guestbook in the profile's database: one file of both parts'
/// data, and an import with a problem in either part changes neither.
@Suite struct GuestbookToolTests {
    let database = FileManager.default.temporaryDirectory.appending(path: "guestbook-\(UUID().uuidString).sqlite")

    func guestbook(_ arguments: String...) throws -> (status: Int32, output: String) {
        let process = Process()
        let tools = [Bundle.main.bundleURL] + Bundle.allBundles.map { $0.bundleURL.deletingLastPathComponent() }
        process.executableURL = tools.map { $0.appending(path: "guestbook") }.first { FileManager.default.isExecutableFile(atPath: $0.path) }
        process.arguments = arguments
        process.environment = ProcessInfo.processInfo.environment.merging(["SCENERY_DATABASE": database.path]) { $1 }
        let output = Pipe()
        (process.standardOutput, process.standardError) = (output, output)
        try process.run()
        let printed = output.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        return (process.terminationStatus, String(decoding: printed, as: UTF8.self))
    }

    @Test func anExportHoldsBothPartsAndABrokenImportChangesNeither() throws {
        let exported = try guestbook("data", "export", "-").output
        #expect(exported.contains(#""guestbook": {"messages":[{"author":"2","id":1,"owner":"1","text":"Lovely tea party!"}]}"#))
        #expect(exported.contains(#""name" : "Alice Liddell""#), "the profile's data, in the same file")
        let broken = database.deletingPathExtension().appendingPathExtension("json")
        try Data(exported.replacingOccurrences(of: "Lovely tea party!", with: "").utf8).write(to: broken)
        let refused = try guestbook("data", "import", broken.path)
        #expect(refused.status != 0)
        #expect(refused.output.contains("error: parts.guestbook.messages[0].text: must have 1 to 280 characters."), "\(refused.output)")
        #expect(try guestbook("data", "export", "-").output == exported, "nothing imported, in either part")
    }
}

/// The site `guestbook serve` serves, started from the tool's catalog in a test: a message
/// Bob signs reaches Alice's open page of her profile, live.
@Suite struct GuestbookServerTests {
    @Test func bobsMessageReachesAlicesOpenPage() async throws {
        let catalog = ModuleCatalog.profile + .guestbook
        let path = FileManager.default.temporaryDirectory.appending(path: "guestbook-\(UUID().uuidString).sqlite").path
        let server = try await catalog.server(on: ToolDatabase.profileFiles.open(path, for: catalog))
        try await server.test(.inProcess) { client in
            let alice = try await client.open("user-profile", arguments: ["user": "1"], as: "1")
            let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
            try await bob.waitForAnswer(to: bob.tap("guestbook/sign", values: ["text": "Hello, Alice"]))
            try await alice.waitUntil("Bob's message") { $0.text(of: "guestbook/m.2.text") == "2: Hello, Alice" }
        }
    }
}

/// The part's size, for issue 64's goal of a guestbook-sized part in at most 300 hand-written
/// lines with its tests (missed: each store is written once per kind of database). The
/// count may shrink and not grow.
@Suite struct GuestbookSizeTests {
    @Test func thePartsHandWrittenLinesStayWithinTheirBudget() throws {
        let root = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        let files = try FileManager.default.subpathsOfDirectory(atPath: root.path).filter { path in
            (path.hasPrefix("Sources/") || path.hasPrefix("Tests/")) && (path.hasSuffix(".swift") || path.hasSuffix("user-profile.json"))
        }
        let lines = try (files + ["Package.swift"]).reduce(0) { total, file in
            total + (try String(contentsOf: root.appending(path: file), encoding: .utf8)).split(separator: "\n", omittingEmptySubsequences: false).count - 1
        }
        #expect(files.count == 7, "\(files.sorted())")
        #expect(lines <= 575, "the part has \(lines) hand-written lines (the generated manifest aside)")
    }
}
