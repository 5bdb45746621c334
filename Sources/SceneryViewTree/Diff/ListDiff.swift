/// The changes that turn one list of identified items into another: deletions,
/// insertions, moves and (for comparable items) updates.
///
/// Items are matched by id, in linear time with hashing; among the items in both lists, the
/// longest run that keeps its relative order stays put (a longest increasing subsequence,
/// O(n log n) with a small constant), so moves are minimal: an item is reported as moved
/// only if its order relative to the others really changed.
///
/// ```swift
/// struct Post: Identifiable, Equatable { var id: Int; var title: String }
/// let diff = ListDiff(from: oldPosts, to: newPosts)   // matched by id, compared for updates
///
/// let ids = ListDiff(fromIDs: ["a", "b", "c", "d"], toIDs: ["b", "a", "d", "e"])
/// ids.deletions    // [2]          ("c", old index)
/// ids.insertions   // [3]          ("e", new index)
/// ids.moves        // [Move(from: 0, to: 1)]   ("a"; "b" and "d" kept their order)
/// ```
///
/// The two initialisers have different labels on purpose: a row type that is both
/// `Identifiable` and `Hashable` is matched by its `Identifiable.id` with
/// `init(from:to:)`, never by its whole value.
///
/// Ids should be unique. Duplicates never crash and cost about what unique ids cost: the
/// k-th occurrence of an id in one list is paired with the k-th in the other (moves are
/// minimal for that pairing), and the ids are listed in ``duplicateIDs``.
package struct ListDiff<ID: Hashable & Sendable>: Sendable, Equatable {
    /// An item that kept its identity but changed position relative to the others.
    package struct Move: Sendable, Hashable {
        /// Its index in the old list.
        package var from: Int
        /// Its index in the new list.
        package var to: Int

        package init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Old indices of removed items, ascending.
    package var deletions: [Int] = []
    /// New indices of added items, ascending.
    package var insertions: [Int] = []
    /// Items that moved, by new index ascending.
    package var moves: [Move] = []
    /// New indices of items in both lists whose content changed, ascending (only from
    /// `init(from:to:)`, which compares items).
    package var updates: [Int] = []
    /// Ids that occur more than once in either list, in no particular order.
    package var duplicateIDs: [ID] = []

    /// Whether the lists are the same.
    package var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && moves.isEmpty && updates.isEmpty }

    /// The changes between two lists of ids: deletions, insertions and moves.
    @inlinable
    package init(fromIDs old: [ID], toIDs new: [ID]) {
        if Self.fitsInt32(old, new) {
            var pairs = IndexPairs<Int32>()
            self.init(old: old, new: new, pairs: &pairs)
        } else {
            var pairs = IndexPairs<Int>()
            self.init(old: old, new: new, pairs: &pairs)
        }
    }

    /// The changes between two lists of identified, comparable items: matched by id,
    /// compared with `==` for ``updates``.
    @inlinable
    package init<Item: Identifiable & Equatable>(from old: [Item], to new: [Item]) where Item.ID == ID {
        let (oldIDs, newIDs) = (old.map(\.id), new.map(\.id))
        if Self.fitsInt32(oldIDs, newIDs) {
            var pairs = IndexPairs<Int32>()
            self.init(old: oldIDs, new: newIDs, pairs: &pairs)
            updates = pairs.updated(old, new)
        } else {
            var pairs = IndexPairs<Int>()
            self.init(old: oldIDs, new: newIDs, pairs: &pairs)
            updates = pairs.updated(old, new)
        }
    }

    /// The changes between two lists of identified items: deletions, insertions and moves
    /// (items are not compared, so there are no updates).
    @inlinable
    package init<Item: Identifiable>(from old: [Item], to new: [Item]) where Item.ID == ID {
        self.init(fromIDs: old.map(\.id), toIDs: new.map(\.id))
    }

    /// Whether every index of both lists, and their sum, fits in 32 bits: the diff's tables
    /// are then half the size (what a diff of a long list spends most of its time on is
    /// memory).
    @inlinable
    package static func fitsInt32(_ old: [ID], _ new: [ID]) -> Bool {
        old.count < Int(Int32.max) / 2 && new.count < Int(Int32.max) / 2
    }

    /// Matches `old` and `new` by id, and fills in everything but ``updates``; `pairs` gets
    /// every matched item's old and new index, in ascending new index.
    ///
    /// The ids go into an open-addressed table of their own, never more than two thirds full:
    /// one hash per item of each list, no entries to allocate. A slot holds `oldIndex + 1`
    /// for the first old occurrence of an id, `-(newIndex + 1)` for an id only `new` has,
    /// and 0 when empty. Later old occurrences of a repeated id are chained after the first
    /// (`nextOccurrence`, allocated only when an id repeats), so the k-th occurrence in
    /// `old` pairs with the k-th in `new`.
    @inlinable
    package init<Index: FixedWidthInteger>(old: [ID], new: [ID], pairs: inout IndexPairs<Index>) {
        let exhausted: Index = -1  // every old occurrence of the id is paired
        // Every id of both lists may need a slot: at most two thirds of them are taken.
        var capacity = 16
        while capacity < (old.count + new.count) + (old.count + new.count) / 2 { capacity <<= 1 }
        let mask = capacity - 1
        var table = [Index](repeating: 0, count: capacity)
        // For the first old occurrence of each id: its first old occurrence not yet paired.
        var firstUnpaired = [Index](repeating: exhausted, count: old.count)
        var nextOccurrence: [Index] = []
        var latestOccurrence: [Int: Int] = [:]  // first old occurrence → its latest, for repeats only
        var reported = Set<ID>()
        table.withUnsafeMutableBufferPointer { slots in
            old.withUnsafeBufferPointer { old in
                for index in old.indices {
                    let id = old[index]
                    let slot = Self.slot(of: id, in: slots, mask: mask, old: old, new: nil)
                    let held = Int(slots[slot])
                    guard held > 0 else {
                        slots[slot] = Index(index + 1)
                        firstUnpaired[index] = Index(index)
                        continue
                    }
                    // A repeat: chained after the id's latest occurrence.
                    let first = held - 1
                    if nextOccurrence.isEmpty { nextOccurrence = [Index](repeating: exhausted, count: old.count) }
                    nextOccurrence[latestOccurrence[first] ?? first] = Index(index)
                    latestOccurrence[first] = index
                    if reported.insert(id).inserted { duplicateIDs.append(id) }
                }
            }
        }
        var matchedOld = [Bool](repeating: false, count: old.count)
        pairs.old.reserveCapacity(min(old.count, new.count))
        pairs.new.reserveCapacity(min(old.count, new.count))
        table.withUnsafeMutableBufferPointer { slots in
            old.withUnsafeBufferPointer { old in
                new.withUnsafeBufferPointer { new in
                    for newIndex in new.indices {
                        let id = new[newIndex]
                        let slot = Self.slot(of: id, in: slots, mask: mask, old: old, new: new)
                        let held = Int(slots[slot])
                        if held == 0 {
                            slots[slot] = Index(-(newIndex + 1))
                            insertions.append(newIndex)
                            continue
                        }
                        let oldIndex = held > 0 ? Int(firstUnpaired[held - 1]) : -1
                        guard oldIndex >= 0 else {
                            // A repeat with nothing left to pair: in `new` only, or occurring
                            // more often in `new` than in `old`.
                            if reported.insert(id).inserted { duplicateIDs.append(id) }
                            insertions.append(newIndex)
                            continue
                        }
                        firstUnpaired[held - 1] = nextOccurrence.isEmpty ? exhausted : nextOccurrence[oldIndex]
                        matchedOld[oldIndex] = true
                        pairs.old.append(Index(oldIndex))
                        pairs.new.append(Index(newIndex))
                    }
                }
            }
        }
        for (oldIndex, matched) in matchedOld.enumerated() where !matched { deletions.append(oldIndex) }
        let staying = Self.longestIncreasingSubsequence(pairs.old)
        for position in pairs.old.indices where !staying[position] {
            moves.append(Move(from: Int(pairs.old[position]), to: Int(pairs.new[position])))
        }
    }

    /// The slot of `id` in the table: the one that holds it, or the empty one where it goes
    /// (linear probing; the table always has an empty slot).
    @inlinable
    package static func slot<Index: FixedWidthInteger>(
        of id: ID, in slots: UnsafeMutableBufferPointer<Index>, mask: Int, old: UnsafeBufferPointer<ID>, new: UnsafeBufferPointer<ID>?
    ) -> Int {
        var slot = id.hashValue & mask
        while true {
            let held = Int(slots[slot])
            if held == 0 { return slot }
            if held > 0 ? old[held - 1] == id : new?[-held - 1] == id { return slot }
            slot = (slot + 1) & mask
        }
    }

    /// Marks the elements of a longest strictly increasing subsequence (patience sorting).
    /// An element larger than every tail, the common case in a list that mostly kept its
    /// order, is appended without a search.
    @inlinable
    package static func longestIncreasingSubsequence<Value: FixedWidthInteger>(_ values: [Value]) -> [Bool] {
        // Positions are kept as `Value` too: half the memory for 32-bit values (a caller
        // passes those only for lists whose positions fit).
        let count = values.count
        var tails = [Value](repeating: 0, count: count)  // positions of the smallest tail of each length
        var tailValues = [Value](repeating: 0, count: count)  // their values, for the search
        var previous = [Value](repeating: -1, count: count)
        var length = 0
        values.withUnsafeBufferPointer { values in
            tails.withUnsafeMutableBufferPointer { tails in
                tailValues.withUnsafeMutableBufferPointer { tailValues in
                    previous.withUnsafeMutableBufferPointer { previous in
                        for position in 0..<count {
                            let value = values[position]
                            var low = length
                            if length > 0, tailValues[length - 1] >= value {
                                low = 0
                                var high = length - 1
                                while low < high {
                                    let middle = (low + high) / 2
                                    if tailValues[middle] < value { low = middle + 1 } else { high = middle }
                                }
                            }
                            if low > 0 { previous[position] = tails[low - 1] }
                            tails[low] = Value(position)
                            tailValues[low] = value
                            if low == length { length += 1 }
                        }
                    }
                }
            }
        }
        var member = [Bool](repeating: false, count: count)
        var position = length > 0 ? Int(tails[length - 1]) : -1
        while position >= 0 {
            member[position] = true
            position = Int(previous[position])
        }
        return member
    }
}

/// The old and new indices of the items a diff matched, in ascending new index.
@usableFromInline
package struct IndexPairs<Index: FixedWidthInteger> {
    @usableFromInline package var old: [Index] = []
    @usableFromInline package var new: [Index] = []

    @inlinable package init() {}

    /// New indices, ascending, of the matched items whose content changed.
    @inlinable
    package func updated<Item: Equatable>(_ oldItems: [Item], _ newItems: [Item]) -> [Int] {
        var updated: [Int] = []
        for position in old.indices where oldItems[Int(old[position])] != newItems[Int(new[position])] {
            updated.append(Int(new[position]))
        }
        return updated
    }
}

extension ListDiff {
    /// Applies the diff: `old` becomes `new` (which supplies inserted and updated items).
    ///
    /// Useful to check a diff, and as the reference for hosts that apply changes one by one:
    /// remove the deleted and moved items, then insert the inserted and moved ones in
    /// ascending new index.
    @inlinable
    package func applying<Item>(to old: [Item], new: [Item]) -> [Item] {
        var removed = [Bool](repeating: false, count: old.count)
        for index in deletions { removed[index] = true }
        for move in moves { removed[move.from] = true }
        var placements = insertions.map { ($0, new[$0]) } + moves.map { ($0.to, old[$0.from]) }
        placements.sort { $0.0 < $1.0 }
        // Survivors keep their order; placed items land at their final indices.
        var result: [Item] = []
        result.reserveCapacity(new.count)
        var survivor = 0
        var placement = 0
        while result.count < new.count {
            if placement < placements.count, placements[placement].0 == result.count {
                result.append(placements[placement].1)
                placement += 1
            } else {
                while survivor < old.count, removed[survivor] { survivor += 1 }
                guard survivor < old.count else { break }
                result.append(old[survivor])
                survivor += 1
            }
        }
        for index in updates where index < result.count { result[index] = new[index] }
        return result
    }
}
