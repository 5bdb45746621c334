/// The writes a module is making now, and the changes that arrived meanwhile: what a
/// ``LiveQuery`` holds back so that no fetch races its module's own write.
///
/// A module shows a write's outcome at once and writes in the background. A change that
/// arrives meanwhile (another viewer's like on the same blog) must not be fetched while the
/// write is in flight, or the fetch can land before the write and show the old value; nor
/// be dropped, or the other viewer's change is lost. So it is held: a change to what is
/// being written until that write ends; any other change until the last write ends (a list
/// fetched now could hold the row as it was before the write).
struct WritesInFlight<Entity: LiveEntity>: Sendable {
    private var writing: Set<Entity> = []
    /// Writes that name no entity (``beginUnnamed()``): they refuse nothing, and hold changes.
    private var unnamed = 0
    private var held: Set<Entity> = []

    /// Whether no write is in flight.
    var isEmpty: Bool { writing.isEmpty && unnamed == 0 }

    /// Whether a write of `entity` is in flight.
    func contains(_ entity: Entity) -> Bool { writing.contains(entity) }

    /// Starts a write of `entity`: `false` when one is in flight already (the module ignores
    /// the second request rather than race the first).
    mutating func begin(_ entity: Entity) -> Bool {
        writing.insert(entity).inserted
    }

    /// Starts a write that names no entity (a form saved): never refused.
    mutating func beginUnnamed() { unnamed += 1 }

    /// A change arrived: `true` when a write is in flight and the change is kept for
    /// ``end(_:)``; `false` when it is fetched now.
    mutating func hold(_ change: Entity) -> Bool {
        guard !isEmpty else { return false }
        held.insert(change)
        return true
    }

    /// Ends the write of `entity`. Returns the changes to fetch now: the written entity if a
    /// change to it was held, and once no write is left, every change held.
    mutating func end(_ entity: Entity) -> [Entity] {
        writing.remove(entity)
        return changesToFetch(afterEnding: entity)
    }

    /// Ends a write begun with ``beginUnnamed()``: every change held, once no write is left.
    mutating func endUnnamed() -> [Entity] {
        unnamed = max(0, unnamed - 1)
        return changesToFetch(afterEnding: nil)
    }

    private mutating func changesToFetch(afterEnding entity: Entity?) -> [Entity] {
        if isEmpty {
            defer { held.removeAll() }
            return held.contains(.everything) ? [.everything] : Array(held)
        }
        guard let entity else { return [] }
        return held.remove(entity).map { [$0] } ?? []
    }
}
