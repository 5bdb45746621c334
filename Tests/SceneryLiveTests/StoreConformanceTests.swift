import Scenery
import SceneryLive
import SceneryTesting
import Testing

/// The store contract's checks, on a store in memory that keeps it and on ones that break
/// one clause each: each break is reported, saying what to do.
@Suite(.timeLimit(.minutes(5))) struct StoreConformanceTests {
    enum Shelf: LiveEntity {
        case book(Int)
        case everything

        var description: String { if case .book(let id) = self { "book \(id)" } else { "everything" } }
    }

    /// A shelf of books in memory: each write records the action's key first (refusing one
    /// recorded before) and publishes what it changed, and its feed hands each change to its
    /// followers only, unless told to break the contract.
    final class MemoryShelf: ChangeFeed {
        let hub = ChangeHub<Shelf>()
        let ledger = MemoryActionLedger()
        let recordsKeys: Bool
        let handsOutEveryBook: Bool
        let tellsTheWriter: Bool

        init(recordsKeys: Bool = true, handsOutEveryBook: Bool = false, tellsTheWriter: Bool = false) {
            (self.recordsKeys, self.handsOutEveryBook, self.tellsTheWriter) = (recordsKeys, handsOutEveryBook, tellsTheWriter)
        }

        func changes(to entities: Set<Shelf>, ignoringWritesOf writer: ChangeSource?) -> ChangeStream<Shelf> {
            hub.changes(to: handsOutEveryBook ? [.book(1), .book(2)] : entities, ignoringWritesOf: tellsTheWriter ? nil : writer)
        }

        var changeMark: Int? { hub.changeMark }

        func hasChanged(_ entities: Set<Shelf>, since mark: Int) -> Bool { hub.hasChanged(entities, since: mark) }

        func write(_ change: Shelf) async throws {
            if recordsKeys, let key = WriteContext.current.nextWriteKey(), try await !ledger.claim(key) { throw DataError.alreadyApplied(key) }
            hub.publish([change])
        }
    }

    func problems(of shelf: MemoryShelf) async -> [String] {
        await StoreConformance.problems(feed: shelf, ledger: shelf.ledger, entities: (.book(1), .book(2)), patience: .seconds(5)) { change in
            try await shelf.write(change)
        }
    }

    @Test func aStoreThatKeepsTheContractHasNoProblems() async {
        #expect(await problems(of: MemoryShelf()) == [])
    }

    @Test func aStoreThatWritesAnActionTwiceIsToldToRecordItsKeyFirst() async {
        let problems = await problems(of: MemoryShelf(recordsKeys: false))
        #expect(problems.count == 2, "\(problems)")
        #expect(problems.contains { $0.hasPrefix("The same action's write ran twice; record `WriteContext.current.nextWriteKey()` first") })
        #expect(problems.contains("An action's write did not leave its key in the ledger."))
    }

    @Test func aFeedThatHandsOutEveryBookIsToldToHandChangesOnlyToTheirFollowers() async {
        let problems = await problems(of: MemoryShelf(handsOutEveryBook: true))
        #expect(problems.count == 1)
        #expect(problems.contains("A module following only book 2 was told of book 1; hand each change only to its followers."), "\(problems)")
    }

    @Test func aStoreThatTellsTheWriterOfItsOwnWriteIsToldToSkipIt() async {
        let problems = await problems(of: MemoryShelf(tellsTheWriter: true))
        #expect(problems.count == 1, "\(problems)")
        #expect(problems.first?.hasPrefix("The module that wrote book 1 was told of its own write") == true)
    }
}
