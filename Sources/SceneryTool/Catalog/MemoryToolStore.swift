import Foundation
import Scenery

/// A ``ToolStore`` in memory, for one process: what a tool whose catalog names no database
/// runs on (a new app's first scenes, a catalog of modules that keep their own data).
///
/// It knows the accounts it is given, remembers actions in a `MemoryActionLedger`, and
/// counts experiments' records until the process ends; it has no data set to export or
/// import.
///
/// ```swift
/// let store = MemoryToolStore(accounts: [ToolAccount(id: "1", name: "Ada")])
/// try await store.hasAccount("1")   // true
/// ```
public final class MemoryToolStore: ToolStore {
    private let accounts: [ToolAccount]
    private let ledger = MemoryActionLedger()
    private let records = Locked<[ImpressionRecord]>([])

    /// A store that lets `accounts` sign in.
    public init(accounts: [ToolAccount] = []) {
        self.accounts = accounts
    }

    public var location: String { "memory" }

    public func signInAccounts() async throws(DataError) -> [ToolAccount] { accounts }

    public func record(_ records: [ImpressionRecord]) async throws(DataError) {
        self.records.withLock { $0 += records }
    }

    public func experimentTallies() async throws(DataError) -> [ExperimentTally] {
        ExperimentTally.tallies(of: records.withLock { $0 })
    }

    public func hasApplied(_ key: ActionKey) async throws -> Bool { try await ledger.hasApplied(key) }

    @discardableResult
    public func claim(_ key: ActionKey) async throws -> Bool { try await ledger.claim(key) }
}
