import Foundation
import Scenery
import SceneryExperiments
import SceneryLive
import Testing

@testable import SceneryTool

/// The seam between the tool and an app's data: which store `--database` opens, what a tool
/// without a database runs on, and what a catalog is told when the store is another app's.
@Suite struct ToolStoreTests {
    /// A file kind that remembers what it was asked to open.
    final class OpenedFiles: Sendable {
        let opened = Locked<[(path: String, createsDirectory: Bool, seedDemoData: Bool)]>([])

        var kind: ToolDatabase {
            .files(named: "board.sqlite") { [opened] path, options in
                opened.withLock { $0.append((path, options.createsDirectory, options.seedDemoData)) }
                return MemoryToolStore(accounts: [ToolAccount(id: "7", name: "Grace")])
            }
        }
    }

    @Test func aToolWhoseCatalogNamesNoDatabaseRunsInMemoryAndRefusesADatabaseFile() async throws {
        try await ToolDatabase.$added.withValue([]) {
            let store = try await DatabaseOptions.parse([]).openStore()
            #expect(store is MemoryToolStore)
            #expect(store.location == "memory")
            let failure = await #expect(throws: CommandFailure.self) { try await DatabaseOptions.parse(["--database", "board.sqlite"]).openStore() }
            #expect(failure?.code == .usage)
            #expect(failure?.description.contains("this tool keeps its data in memory (its catalog names no database); drop --database") == true)
        }
    }

    @Test func aPathOpensWithTheCatalogsFileKindAndATypedPathIsNeverCreated() async throws {
        let files = OpenedFiles()
        try await ToolDatabase.$added.withValue([files.kind]) {
            let store = try await DatabaseOptions.parse(["--database", "/tmp/board-of-tests.sqlite"]).openStore(seedDemoData: false)
            #expect(try await store.hasAccount("7"))
            #expect(try await !store.hasAccount("8"))
        }
        let opened = files.opened.withLock { $0 }
        #expect(opened.map(\.path) == ["/tmp/board-of-tests.sqlite"])
        #expect(opened.first?.createsDirectory == false, "only the default location's folder is created")
        #expect(opened.first?.seedDemoData == false)
    }

    @Test func aURLOfASchemeTheToolDoesNotOpenSaysWhatItOpens() async throws {
        let files = OpenedFiles()
        await ToolDatabase.$added.withValue([files.kind]) {
            let failure = await #expect(throws: CommandFailure.self) {
                try await DatabaseOptions.parse(["--database", "mysql://me@localhost/board"]).openStore()
            }
            #expect(failure?.description == "--database 'mysql://me@localhost/board': this tool opens database files, not mysql:// URLs; give a file path.")
        }
        #expect(files.opened.withLock { $0.isEmpty })
    }

    struct BoardStore: ToolStore {
        var location: String { "board" }
        func signInAccounts() async throws(DataError) -> [ToolAccount] { [] }
        func record(_ records: [ImpressionRecord]) async throws(DataError) {}
        func experimentTallies() async throws(DataError) -> [ExperimentTally] { [] }
        func hasApplied(_ key: ActionKey) async throws -> Bool { false }
        func claim(_ key: ActionKey) async throws -> Bool { true }
    }

    @Test func aCatalogGivenAnotherAppsStoreIsToldWhichStoreItNeeds() throws {
        let services = ToolServices(store: MemoryToolStore())
        let error = #expect(throws: SceneryError.self) { try services.store(as: BoardStore.self) }
        #expect(error?.message.contains("need a BoardStore, but the tool opened MemoryToolStore at 'memory'") == true, "\(String(describing: error))")
        #expect(try ToolServices(store: BoardStore()).store(as: BoardStore.self).location == "board")
    }

    /// An app's store that is its own change feed (as `scenery new`'s is), nothing more written.
    final class FeedStore: ToolStore, ChangeFeed {
        let hub = ChangeHub<BoardLikeChange>()
        let memory = MemoryToolStore(accounts: [])
        var location: String { "feed" }
        func signInAccounts() async throws(DataError) -> [ToolAccount] { [] }
        func record(_ records: [ImpressionRecord]) async throws(DataError) {}
        func experimentTallies() async throws(DataError) -> [ExperimentTally] { [] }
        func hasApplied(_ key: ActionKey) async throws -> Bool { try await memory.hasApplied(key) }
        func claim(_ key: ActionKey) async throws -> Bool { try await memory.claim(key) }
        func changes(to entities: Set<BoardLikeChange>, ignoringWritesOf writer: ChangeSource?) -> ChangeStream<BoardLikeChange> {
            hub.changes(to: entities, ignoringWritesOf: writer)
        }
        func observeFanOuts(_ observer: @escaping @Sendable (FanOut) -> Void) { hub.observeFanOuts(observer) }
    }

    enum BoardLikeChange: LiveEntity {
        case card(Int)
        case everything
        var description: String {
            switch self {
            case .card(let id): "card \(id)"
            case .everything: "everything"
            }
        }
    }

    @Test func aStoreThatIsItsOwnChangeFeedReportsItsFanOutsWithNothingMoreWritten() async throws {
        let store = FeedStore()
        let reported = Locked<[FanOut]>([])
        store.reportFanOuts { fanOut in reported.withLock { $0.append(fanOut) } }
        let following = store.changes(to: [.card(1)])
        store.hub.publish([.card(1)])
        #expect(reported.withLock { $0.map(\.deliveries) } == [1], "what `serve --metrics` records")
        _ = following
        let memory: any ToolStore = MemoryToolStore(accounts: [])
        memory.reportFanOuts { _ in Issue.record("a store with no feed reports nothing") }
    }

    @Test func aStoreWithoutADataSetSaysSoForExportImportAndReset() async throws {
        let store = BoardStore()
        await #expect(throws: DataError.self) { try await store.exportJSON { _ in } }
        let imported = await #expect(throws: DataError.self) { _ = try await store.importJSON(Data("{}".utf8)) }
        #expect(imported?.message == "Nothing can be imported into 'board': this app's store has no data set format.")
        let reset = await #expect(throws: DataError.self) { _ = try await store.resetToDemoData() }
        #expect(reset?.message == "'board' cannot be reset: this app has no demo data.")
    }

    @Test func theMemoryStoreCountsEachUnitOnceAndClaimsAnActionOnce() async throws {
        let store = MemoryToolStore()
        let assignment = ImpressionRecord(kind: .assignment, scene: "board", variant: "default", unit: "1", experiment: "layout", arm: "compact")
        try await store.record([
            assignment, assignment, ImpressionRecord(kind: .assignment, scene: "board", variant: "default", unit: "2", experiment: "layout", arm: "wide"),
        ])
        let tallies = try await store.experimentTallies()
        #expect(tallies.map(\.experiment) == ["layout"])
        #expect(tallies.first?.assigned == ["compact": 1, "wide": 1])
        let key = ActionKey.random()
        #expect(try await store.claim(key))
        #expect(try await !store.claim(key))
        #expect(try await store.hasApplied(key))
        #expect(try await !store.hasAccount("1"), "a store given no accounts lets nobody sign in")
    }

    /// An app's entities, for a feed.
    enum Note: LiveEntity {
        case note(Int)
        case everything
        var description: String { "\(self)" }
    }

    /// A site store that is also its app's change feed, noting when it is asked to listen;
    /// its ledger and records are a memory store's.
    final class ListeningSite: SiteStore, ForwardingChangeFeed {
        typealias Entity = Note
        let memory = MemoryToolStore()
        let hub = ChangeHub<Note>()
        let listened = Locked(0)
        var forwardedFeed: any ChangeFeed<Note> { hub }
        var location: String { "the listening site" }
        func listen() { listened.withLock { $0 += 1 } }
        func record(_ records: [ImpressionRecord]) async throws(DataError) { try await memory.record(records) }
        func experimentTallies() async throws(DataError) -> [ExperimentTally] { try await memory.experimentTallies() }
        func hasApplied(_ key: ActionKey) async throws -> Bool { try await memory.hasApplied(key) }
        func claim(_ key: ActionKey) async throws -> Bool { try await memory.claim(key) }
    }

    /// An app's tool store that names the store it wraps, and forwards nothing itself.
    struct BackedToolStore: ToolStore, SiteStoreBacked {
        let site: ListeningSite
        var backingSiteStore: any SiteStore { site }
        func signInAccounts() async throws(DataError) -> [ToolAccount] { [] }
    }

    @Test func aToolStoreBuiltOnASiteStoreListensAndReportsFanOutsThroughIt() async throws {
        let site = ListeningSite()
        let store = BackedToolStore(site: site)
        #expect(store.location == "the listening site")
        try await store.listen()
        #expect(site.listened.withLock { $0 } == 1, "serve's listen reaches the site store (not the tool store's do-nothing default)")
        let (fanOuts, reported) = AsyncStream.makeStream(of: Int.self)
        store.reportFanOuts { reported.yield($0.deliveries) }
        var changes = site.hub.changes(to: [.note(1)]).makeAsyncIterator()
        site.hub.publish([.note(1)])
        #expect(await changes.next() == .note(1))
        var deliveries = fanOuts.makeAsyncIterator()
        #expect(await deliveries.next() == 1, "the site store's fan-outs reach serve's metrics")
        let key = ActionKey.random()
        #expect(try await store.claim(key))
        #expect(try await site.memory.hasApplied(key), "claimed in the site store's ledger")
    }
}
