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
    /// `init(from:to:)`, which compares items).
    public var updates: [Int] = []
    /// Ids that occur more than once in either list, in no particular order.
    public var duplicateIDs: [ID] = []

    /// Whether the lists are the same.
    public var isEmpty: Bool { deletions.isEmpty && insertions.isEmpty && moves.isEmpty && updates.isEmpty }

    /// The changes between two lists of ids: deletions, insertions and moves.
    @inlinable
    public init(fromIDs old: [ID], toIDs new: [ID]) {
        self.init(old: old, new: new, areEqual: nil)
    }

    /// The changes between two lists of identified, comparable items: matched by id,
    /// compared with `==` for ``updates``.
    @inlinable
    public init<Item: Identifiable & Equatable>(from old: [Item], to new: [Item]) where Item.ID == ID {
        self.init(old: old.map(\.id), new: new.map(\.id)) { oldIndex, newIndex in old[oldIndex] == new[newIndex] }
    }

    /// The changes between two lists of identified items: deletions, insertions and moves
    /// (items are not compared, so there are no updates).
    @inlinable
    public init<Item: Identifiable>(from old: [Item], to new: [Item]) where Item.ID == ID {
        self.init(old: old.map(\.id), new: new.map(\.id), areEqual: nil)
    }

    @inlinable
    init(old: [ID], new: [ID], areEqual: ((Int, Int) -> Bool)?) {
        // The first unpaired old index of each id; later occurrences of a repeated id are
        // chained through `nextOccurrence` (allocated only when an id repeats). One hash
        // operation per item in each list, unique or not.
        let exhausted = -1  // every old occurrence is paired: a further one in `new` repeats
        let onlyNew = -2  // not in `old`: a further one in `new` repeats
        var firstUnpaired = [ID: Int](minimumCapacity: old.count)
        var nextOccurrence: [Int] = []
        var reported = Set<ID>()
        for index in old.indices.reversed() {
            guard let later = firstUnpaired.updateValue(index, forKey: old[index]) else { continue }
            if nextOccurrence.isEmpty { nextOccurrence = [Int](repeating: exhausted, count: old.count) }
            nextOccurrence[index] = later
            if reported.insert(old[index]).inserted { duplicateIDs.append(old[index]) }
        }
        var matchedOld = [Bool](repeating: false, count: old.count)
        var sequence: [Int] = []  // old indices of matched items, in new order
        var sequencePositions: [Int] = []  // their new indices
        sequence.reserveCapacity(new.count)
        sequencePositions.reserveCapacity(new.count)
        for (newIndex, id) in new.enumerated() {
            guard let slot = firstUnpaired.index(forKey: id) else {
                firstUnpaired[id] = onlyNew
                insertions.append(newIndex)
                continue
            }
            let oldIndex = firstUnpaired.values[slot]
            guard oldIndex >= 0 else {
                if reported.insert(id).inserted { duplicateIDs.append(id) }
                insertions.append(newIndex)
                continue
            }
            firstUnpaired.values[slot] = nextOccurrence.isEmpty ? exhausted : nextOccurrence[oldIndex]
            matchedOld[oldIndex] = true
            sequence.append(oldIndex)
            sequencePositions.append(newIndex)
            if let areEqual, !areEqual(oldIndex, newIndex) { updates.append(newIndex) }
        }
        for (oldIndex, matched) in matchedOld.enumerated() where !matched { deletions.append(oldIndex) }
        let staying = Self.longestIncreasingSubsequence(sequence)
        for (position, oldIndex) in sequence.enumerated() where !staying[position] {
            moves.append(Move(from: oldIndex, to: sequencePositions[position]))
        }
    }

    /// Marks the elements of a longest strictly increasing subsequence (patience sorting).
    @inlinable
    static func longestIncreasingSubsequence(_ values: [Int]) -> [Bool] {
        var tails: [Int] = []  // positions in `values` of the smallest tail of each length
        var previous = [Int](repeating: -1, count: values.count)
        tails.reserveCapacity(values.count / 2)
        for (position, value) in values.enumerated() {
            var low = 0
            var high = tails.count
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
