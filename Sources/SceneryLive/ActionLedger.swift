import Scenery

/// Where a host learns whether an action was already applied, and claims one-time keys
/// (a resume token used once): the database a site's servers share, or memory for one
/// process.
///
/// A store that records `WriteContext/nextWriteKey()` first in its writing transactions is the ledger of
/// the actions it wrote; `SQLiteProfileStore` and `PostgresProfileStore` are both.
///
/// ```swift
/// let ledger: any ActionLedger = MemoryActionLedger()
/// let key = ActionKey.random()
/// try await ledger.claim(key)           // true: first time
/// try await ledger.claim(key)           // false: already claimed
/// ```
public protocol ActionLedger: Sendable {
    /// Whether a write was recorded for `key`, or the key was claimed.
    func hasApplied(_ key: ActionKey) async throws -> Bool

    /// Records `key` unless it is recorded; returns whether this call recorded it.
    @discardableResult
    func claim(_ key: ActionKey) async throws -> Bool
}

/// An ``ActionLedger`` in memory, for one process (a server without a shared database,
/// tests). It keeps the newest `capacity` keys.
public final class MemoryActionLedger: ActionLedger {
    private let keys: Locked<RecentKeys<ActionKey>>

    /// A ledger that forgets the oldest keys past `capacity`.
    public init(capacity: Int = 100_000) {
        keys = Locked(RecentKeys(capacity: capacity))
    }

    public func hasApplied(_ key: ActionKey) async throws -> Bool {
        keys.withLock { $0.contains(key) }
    }

    @discardableResult
    public func claim(_ key: ActionKey) async throws -> Bool {
        keys.withLock { $0.insert(key) }
    }
}
