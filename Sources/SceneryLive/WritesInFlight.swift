/// The writes a module is making now, and the changes that arrived meanwhile: the one piece
/// of "changed meanwhile" bookkeeping a module with optimistic writes needs.
///
/// A module shows a write's outcome at once and writes in the background. A change to what
/// it writes that arrives meanwhile (another viewer's like on the same blog) must not be
/// fetched while the write is in flight, or the fetch can land before the write and show
/// the old value; nor be dropped, or the other viewer's change is lost. So the module holds
/// it (``holdChange(to:)``), and fetches again when the write ends (``end(_:)`` says what).
///
/// Keys are what one write touches: a row's id, or one value for a module that writes one
/// thing. A change to the whole list waits for every write (``holdChangeToAll()``).
///
/// ```swift
/// private var writes = WritesInFlight<Int64>()
///
/// func toggle(_ id: Int64) async {
///     guard writes.begin(id) else { return }  // a second tap while writing: ignored
///     let done = await Result { try await live.writing { try await tasks.toggle(id) } }
///     if writes.end(id) != nil { await refetch(id) }  // someone else changed it meanwhile
/// }
///
/// func changed(_ id: Int64) async {
///     guard !writes.holdChange(to: id) else { return }
///     await refetch(id)
/// }
/// ```
public struct WritesInFlight<Key: Hashable & Sendable>: Sendable {
    private var writing: Set<Key> = []
    private var changed: Set<Key> = []
    private var changedAll = false

    /// No write in flight.
    public init() {}

    /// Whether no write is in flight.
    public var isEmpty: Bool { writing.isEmpty }

    /// Whether a write of `key` is in flight.
    public func contains(_ key: Key) -> Bool { writing.contains(key) }

    /// Starts a write of `key`: `false` when one is in flight already (the module ignores
    /// the second request rather than race the first).
    public mutating func begin(_ key: Key) -> Bool {
        writing.insert(key).inserted
    }

    /// A change to `key` arrived: `true` when a write of it is in flight, and the change is
    /// kept for ``end(_:)``; `false` when the module fetches it now.
    public mutating func holdChange(to key: Key) -> Bool {
        guard writing.contains(key) else { return false }
        changed.insert(key)
        return true
    }

    /// A change to everything the module shows arrived (its list, or a feed that lost
    /// track): `true` when any write is in flight, and the change is kept until the last
    /// one ends; `false` when the module fetches it now.
    public mutating func holdChangeToAll() -> Bool {
        guard !writing.isEmpty else { return false }
        changedAll = true
        return true
    }

    /// What to fetch again once a write ended: what changed while it was in flight.
    public enum Refetch: Hashable, Sendable {
        /// The key written: a change to it was held.
        case key(Key)
        /// Everything the module shows: a change to all was held, and no write is left.
        case everything
    }

    /// Ends the write of `key`. Returns what changed meanwhile, for the module to fetch
    /// again now: `key` when a change to it was held, ``Refetch/everything`` when a change
    /// to everything was held and this was the last write in flight; `nil` when nothing
    /// changed.
    public mutating func end(_ key: Key) -> Refetch? {
        writing.remove(key)
        if writing.isEmpty, changedAll {
            changedAll = false
            changed.removeAll()
            return .everything
        }
        return changed.remove(key) != nil ? .key(key) : nil
    }
}
