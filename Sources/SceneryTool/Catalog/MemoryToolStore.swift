import Foundation
import Scenery
import SceneryExperiments
import SceneryLive

/// A ``ToolStore`` in memory, for one process: what a tool whose catalog names no database
/// runs on (a new app's first scenes, a catalog of modules that keep their own data).
///
/// It knows the accounts it is given, remembers actions in a `MemoryActionLedger`, and
/// counts experiments' units until the process ends (each unit's assignment and exposure
/// once, not every record: memory stays bounded by the units, however long a page lives); it
/// has no data set to export or import.
///
/// ```swift
/// let store = MemoryToolStore(accounts: [ToolAccount(id: "1", name: "Ada")])
/// try await store.hasAccount("1")   // true
/// ```
public final class MemoryToolStore: ToolStore {
    private let accounts: [ToolAccount]
    private let ledger = MemoryActionLedger()
    /// The records a tally counts, once per unit, arm and kind (time and place left out).
    private let counted = Locked<Set<ImpressionRecord>>([])

    /// A store that lets `accounts` sign in.
    public init(accounts: [ToolAccount] = []) {
        self.accounts = accounts
    }

    public var location: String { "memory" }

    public func signInAccounts() async throws(DataError) -> [ToolAccount] { accounts }

    public func record(_ records: [ImpressionRecord]) async throws(DataError) {
        let counts = records.filter { $0.kind != .impression && $0.experiment != nil && $0.arm != nil && $0.unit != nil }.map { record in
            ImpressionRecord(
                kind: record.kind, time: .distantPast, scene: "", variant: "", unit: record.unit, experiment: record.experiment, arm: record.arm)
        }
        counted.withLock { $0.formUnion(counts) }
    }

    public func experimentTallies() async throws(DataError) -> [ExperimentTally] {
        ExperimentTally.tallies(of: counted.withLock { $0 })
    }

    public func hasApplied(_ key: ActionKey) async throws -> Bool { try await ledger.hasApplied(key) }

    @discardableResult
    public func claim(_ key: ActionKey) async throws -> Bool { try await ledger.claim(key) }
}
