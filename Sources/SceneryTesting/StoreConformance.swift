import Scenery
import SceneryLive

/// The contract every store of Scenery's keeps, as checks a store of your own runs in its
/// tests: its changes reach the modules that follow them and no others, a module's own write
/// does not come back to it, and an action's write happens once.
///
/// Scenery's site stores (SQLite, PostgreSQL) and the example apps' stores pass it. Hand it
/// your store's feed and ledger, and a write that changes one entity:
///
/// ```swift
/// @Test func theBoardStoreKeepsTheContract() async throws {
///     let store = try SQLiteBoardStore(path: path)
///     let problems = await StoreConformance.problems(
///         feed: store, ledger: store, entities: (.board("1"), .board("2"))
///     ) { change in
///         guard case .board(let owner) = change else { return }
///         try store.addTask("A task", on: owner)
///     }
///     #expect(problems.isEmpty, "\(problems)")
/// }
/// ```
///
/// Each problem says what the store did and what it should have done. Checks wait for
/// the changes they expect (up to `patience`), never for a time in which nothing happens:
/// that a change did *not* reach a subscriber is checked by a later change that did.
public enum StoreConformance {
    /// What the store does wrong, if anything.
    ///
    /// - Parameters:
    ///   - feed: The store's change feed.
    ///   - ledger: The store's action ledger (usually the store itself).
    ///   - entities: Two different entities `write` can change.
    ///   - patience: How long to wait for a change that should arrive.
    ///   - write: Makes one write that changes the entity it is given, announcing it in the
    ///     write's transaction, and records the current action's key first
    ///     (`WriteContext.current.nextWriteKey()`), as every store write does.
    public static func problems<Entity: LiveEntity>(
        feed: any ChangeFeed<Entity>, ledger: any ActionLedger, entities: (Entity, Entity), patience: Duration = .seconds(10),
        write: @escaping @Sendable (Entity) async throws -> Void
    ) async -> [String] {
        var problems: [String] = []
        let (first, second) = entities
        // A subscriber of `first` hears its write; a subscriber of `second` only `second`'s.
        let firstLog = AwaitableLog<Entity>()
        let secondLog = AwaitableLog<Entity>()
        let writerLog = AwaitableLog<Entity>()
        let firstLive = LiveChanges(feed)
        let secondLive = LiveChanges(feed)
        let writerLive = LiveChanges(feed)
        _ = firstLive.follow([first]) { firstLog.append($0) }
        _ = secondLive.follow([second]) { secondLog.append($0) }
        _ = writerLive.follow([first, second]) { writerLog.append($0) }
        defer {
            for live in [firstLive, secondLive, writerLive] { live.stop() }
        }
        do {
            // The writer's own write of `first`, then another's write of `second`.
            // As a module's write for its viewer's action (`WriteContext.isBound`).
            try await ActionKey.run(as: nil) { try await writerLive.writing { try await write(first) } }
            try await write(second)
        } catch {
            return ["A write failed: \(SceneryError.message(for: error)); the checks need two writes that succeed."]
        }
        if await !firstLog.wait(timeout: patience, until: { $0.contains(first) }) {
            problems.append("A write of \(first) did not reach a module following \(first) within \(patience); publish each write's changes.")
        }
        if await !secondLog.wait(timeout: patience, until: { $0.contains(second) }) {
            problems.append("A write of \(second) did not reach a module following \(second) within \(patience).")
        } else if secondLog.elements.contains(first) {
            problems.append("A module following only \(second) was told of \(first); hand each change only to its followers.")
        }
        if await !writerLog.wait(timeout: patience, until: { $0.contains(second) }) {
            problems.append("Another's write of \(second) did not reach the writing module within \(patience).")
        } else if writerLog.elements.contains(first) {
            problems.append(
                "The module that wrote \(first) was told of its own write; skip the subscription of `WriteContext.current.writer` when publishing.")
        }
        problems += await exactlyOnceProblems(ledger: ledger, entity: first, write: write)
        return problems
    }

    /// What the store does wrong with actions: a key claimed twice, a write of an action run
    /// again.
    static func exactlyOnceProblems<Entity: LiveEntity>(
        ledger: any ActionLedger, entity: Entity, write: @escaping @Sendable (Entity) async throws -> Void
    ) async -> [String] {
        var problems: [String] = []
        let claimed = ActionKey.random()
        do {
            let firstClaim = try await ledger.claim(claimed)
            let secondClaim = try await ledger.claim(claimed)
            if !firstClaim || secondClaim { problems.append("Claiming a new key twice answered \(firstClaim), \(secondClaim); it must be true, then false.") }
            if try await !ledger.hasApplied(claimed) { problems.append("A claimed key is not known as applied.") }
        } catch {
            problems.append("The ledger failed: \(SceneryError.message(for: error)).")
        }
        let action = ActionKey.random()
        do {
            try await ActionKey.run(as: action) { try await write(entity) }
        } catch {
            return problems + ["A write made as an action failed: \(SceneryError.message(for: error))."]
        }
        do {
            try await ActionKey.run(as: action) { try await write(entity) }
            problems.append(
                "The same action's write ran twice; record `WriteContext.current.nextWriteKey()` first in the write's transaction and refuse a key recorded before."
            )
        } catch let error as DataError where error.kind == .alreadyApplied {
            // As it should: the second run wrote nothing.
        } catch {
            problems.append("The same action's write run again failed with \(SceneryError.message(for: error)), not DataError.alreadyApplied.")
        }
        do {
            if try await !ledger.hasApplied(action) { problems.append("An action's write did not leave its key in the ledger.") }
        } catch {
            problems.append("The ledger failed: \(SceneryError.message(for: error)).")
        }
        return problems
    }
}
