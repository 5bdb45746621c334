/// The changes that turn one list of identified items into another: deletions,
/// insertions, moves and (for comparable items) updates.
///
/// Items are matched by id, in linear time with hashing; among the items in both lists, the
/// longest run that keeps its relative order stays put (a longest increasing subsequence,
/// O(n log n) with a small constant), so moves are minimal: an item is reported as moved
/// only if its order relative to the others really changed.
///
/// ```swift
/// let diff = ListDiff(from: ["a", "b", "c", "d"], to: ["b", "a", "d", "e"])
/// diff.deletions    // [2]          ("c", old index)
/// diff.insertions   // [3]          ("e", new index)
/// diff.moves        // [Move(from: 0, to: 1)]   ("a"; "b" and "d" kept their order)
/// ```
///
/// Ids should be unique. Duplicates never crash: the k-th occurrence of an id in one list
/// is matched with the k-th in the other, and the ids are listed in ``duplicateIDs``.
public struct ListDiff<ID: Hashable & Sendable>: Sendable, Equatable {
    /// An item that kept its identity but changed position relative to the others.
    public struct Move: Sendable, Hashable {
        /// Its index in the old list.
        public var from: Int
        /// Its index in the new list.
        public var to: Int

        public init(from: Int, to: Int) {
            self.from = from
            self.to = to
        }
    }

    /// Old indices of removed items, ascending.
    public var deletions: [Int] = []
    /// New indices of added items, ascending.
    public var insertions: [Int] = []
    /// Items that moved, by new index ascending.
    public var moves: [Move] = []
    /// New indices of items in both lists whose content changed, ascending (only from
    /// ``init(from:to:)-(_,_)`` on comparable items).
    public var updates: [Int] = []
    /// Ids that occur more than once in either list.
    public var duplicateIDs: [ID] = []

    /// Whether the lists are the same.
    public var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && moves.isEmpty && updates.isEmpty }

    /// The changes between two lists of ids.
    @inlinable
    public init(from old: [ID], to new: [ID]) {
        self.init(old: old, new: new, areEqual: nil)
    }

    /// The changes between two lists of identified, comparable items, updates included.
    @inlinable
    public init<Item: Identifiable & Equatable>(from old: [Item], to new: [Item]) where Item.ID == ID {
        self.init(old: old.map(\.id), new: new.map(\.id)) { oldIndex, newIndex in old[oldIndex] == new[newIndex] }
    }

    @inlinable
    init(old: [ID], new: [ID], areEqual: ((Int, Int) -> Bool)?) {
        // Match by id; fall back to (id, occurrence) keys when an id repeats.
        let matches: [Int?]  // for each new index, the matched old index
        var matchedOld = [Bool](repeating: false, count: old.count)
        if let simple = Self.simpleMatches(old: old, new: new) {
            matches = simple
        } else {
            let (occurrenceMatches, duplicates) = Self.occurrenceMatches(old: old, new: new)
            matches = occurrenceMatches
            duplicateIDs = duplicates
        }
        var sequence: [Int] = []  // old indices of matched items, in new order
        var sequencePositions: [Int] = []  // their new indices
        sequence.reserveCapacity(new.count)
        sequencePositions.reserveCapacity(new.count)
        for (newIndex, match) in matches.enumerated() {
            if let oldIndex = match {
                matchedOld[oldIndex] = true
                sequence.append(oldIndex)
                sequencePositions.append(newIndex)
                if let areEqual, !areEqual(oldIndex, newIndex) { updates.append(newIndex) }
            } else {
                insertions.append(newIndex)
            }
        }
        for (oldIndex, matched) in matchedOld.enumerated() where !matched { deletions.append(oldIndex) }
        let staying = Self.longestIncreasingSubsequence(sequence)
        for (position, oldIndex) in sequence.enumerated() where !staying[position] {
            moves.append(Move(from: oldIndex, to: sequencePositions[position]))
        }
    }

    /// Matches by id when no id repeats; `nil` if one does.
    @inlinable
    static func simpleMatches(old: [ID], new: [ID]) -> [Int?]? {
        var oldIndex = [ID: Int](minimumCapacity: old.count)
        for (index, id) in old.enumerated() {
            guard oldIndex.updateValue(index, forKey: id) == nil else { return nil }
        }
        var seen = Set<ID>(minimumCapacity: new.count)
        var matches = [Int?](repeating: nil, count: new.count)
        for (index, id) in new.enumerated() {
            guard seen.insert(id).inserted else { return nil }
            matches[index] = oldIndex[id]
        }
        return matches
    }

    @usableFromInline
    struct Occurrence: Hashable {
        @usableFromInline var id: ID
        @usableFromInline var number: Int

        @inlinable
        init(id: ID, number: Int) {
            self.id = id
            self.number = number
        }
    }

    /// Matches the k-th occurrence of an id in one list with the k-th in the other.
    @inlinable
    static func occurrenceMatches(old: [ID], new: [ID]) -> ([Int?], [ID]) {
        var duplicates: [ID] = []
        var reported = Set<ID>()
        func keys(_ ids: [ID]) -> [Occurrence] {
            var counts: [ID: Int] = [:]
            return ids.map { id in
                let number = counts[id, default: 0]
                counts[id] = number + 1
                if number == 1, reported.insert(id).inserted { duplicates.append(id) }
                return Occurrence(id: id, number: number)
            }
        }
        let oldKeys = keys(old), newKeys = keys(new)
        var oldIndex = [Occurrence: Int](minimumCapacity: old.count)
        for (index, key) in oldKeys.enumerated() { oldIndex[key] = index }
        return (newKeys.map { oldIndex[$0] }, duplicates)
    }

    /// Marks the elements of a longest strictly increasing subsequence (patience sorting).
    @inlinable
    static func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
        var tails: [Int] = []  // positions in `values` of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        tails.reserveCapacity(values.count / 2)
        for (position, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[position] = tails[low - 1] }
            if low == tails.count { tails.append(position) } else { tails[low] = position }
        }
        var member = [Bool](repeating: false, count: values.count)
        var position = tails.last ?? -1
        while position >= 0 {
            member[position] = true
            position = previous[position]
        }
        return member
    }
}

extension ListDiff {
    /// Applies the diff: `old` becomes `new` (which supplies inserted and updated items).
    ///
    /// Useful to check a diff, and as the reference for hosts that apply changes one by one:
    /// remove the deleted and moved items, then insert the inserted and moved ones in
    /// ascending new index.
    @inlinable
    public func applying<Item>(to old: [Item], new: [Item]) -> [Item] {
        var removed = [Bool](repeating: false, count: old.count)
        for index in deletions { removed[index] = true }
        for move in moves { removed[move.from] = true }
        var placements = insertions.map { ($0, new[$0]) } + moves.map { ($0.to, old[$0.from]) }
        placements.sort { $0.0 < $1.0 }
        // Survivors keep their order; placed items land at their final indices.
        var result: [Item] = []
        result.reserveCapacity(new.count)
        var survivor = 0, placement = 0
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
