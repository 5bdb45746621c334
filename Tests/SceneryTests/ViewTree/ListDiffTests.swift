import SceneryTesting
import Testing

@testable import Scenery

struct Row: Identifiable, Equatable {
    var id: Int
    var content: Int
}

/// 10% inserts, deletes, moves and updates of `count` rows (the benchmark's mix).
func mutated(_ old: [Row], percent: Int, using random: inout SeededRandom, nextID: inout Int) -> [Row] {
    var rows = old
    let changes = max(1, old.count * percent / 100)
    for _ in 0..<changes where !rows.isEmpty { rows.remove(at: Int.random(in: 0..<rows.count, using: &random)) }
    for _ in 0..<changes where !rows.isEmpty {
        let row = rows.remove(at: Int.random(in: 0..<rows.count, using: &random))
        rows.insert(row, at: Int.random(in: 0...rows.count, using: &random))
    }
    for _ in 0..<changes where !rows.isEmpty { rows[Int.random(in: 0..<rows.count, using: &random)].content += 1 }
    for _ in 0..<changes {
        rows.insert(Row(id: nextID, content: 0), at: Int.random(in: 0...rows.count, using: &random))
        nextID += 1
    }
    return rows
}

@Suite struct ListDiffTests {
    @Test func reportsMinimalChanges() {
        let diff = ListDiff(fromIDs: ["a", "b", "c", "d"], toIDs: ["b", "a", "d", "e"])
        #expect(diff.deletions == [2])
        #expect(diff.insertions == [3])
        #expect(diff.moves.count == 1, "only one of a/b changed its relative order")
        #expect(diff.applying(to: ["a", "b", "c", "d"], new: ["b", "a", "d", "e"]) == ["b", "a", "d", "e"])
    }

    @Test func movingOneRowFarIsOneMove() {
        let old = Array(0..<1000)
        var new = old
        new.insert(new.remove(at: 3), at: 900)
        let diff = ListDiff(fromIDs: old, toIDs: new)
        #expect(diff.moves == [ListDiff<Int>.Move(from: 3, to: 900)])
        #expect(diff.deletions.isEmpty && diff.insertions.isEmpty)
    }

    @Test(arguments: 0..<200)
    func matchesTheStandardLibraryOnRandomArrays(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        let count = Int.random(in: 0...60, using: &random)
        var nextID = 1000
        let old = (0..<count).map { Row(id: $0, content: 0) }
        let new = mutated(old, percent: Int.random(in: 5...40, using: &random), using: &random, nextID: &nextID)
        let diff = ListDiff(from: old, to: new)
        // Applying our diff and the standard library's gives the same array.
        #expect(diff.applying(to: old, new: new) == new)
        let oracle = new.difference(from: old)
        #expect(old.applying(oracle) == new)
        // Deletions and insertions are exactly the ids only on one side.
        let oldIDs = Set(old.map(\.id))
        let newIDs = Set(new.map(\.id))
        #expect(Set(diff.deletions.map { old[$0].id }) == oldIDs.subtracting(newIDs))
        #expect(Set(diff.insertions.map { new[$0].id }) == newIDs.subtracting(oldIDs))
        // Updates are exactly the matched rows whose content changed.
        let oldByID = Dictionary(uniqueKeysWithValues: old.map { ($0.id, $0) })
        let expectedUpdates = new.indices.filter { index in
            oldByID[new[index].id].map { $0.content != new[index].content } ?? false
        }
        #expect(diff.updates == expectedUpdates)
        // Moves are minimal: the kept rows form a longest common order.
        let common = new.compactMap { row in old.firstIndex { $0.id == row.id } }
        #expect(diff.moves.count == common.count - Self.longestIncreasingRun(common))
    }

    static func longestIncreasingRun(_ values: [Int]) -> Int {
        // Quadratic reference, for small arrays.
        var best = [Int](repeating: 1, count: values.count)
        for i in values.indices { for j in 0..<i where values[j] < values[i] { best[i] = max(best[i], best[j] + 1) } }
        return best.max() ?? 0
    }

    @Test func duplicateIdsNeverCrashAndAreReported() {
        let old = ["a", "a", "b", "c", "c", "c"]
        let new = ["c", "a", "b", "a", "c"]
        let diff = ListDiff(fromIDs: old, toIDs: new)
        #expect(diff.duplicateIDs.sorted() == ["a", "c"])
        #expect(diff.applying(to: old, new: new) == new)
    }

    @Test func duplicatesArePairedInOrderOfOccurrence() {
        // The first "a" of the new list is the first "a" of the old one, the second the second.
        let diff = ListDiff(fromIDs: ["a", "b", "a"], toIDs: ["a", "a", "b"])
        #expect(diff.moves == [ListDiff<String>.Move(from: 2, to: 1)] || diff.moves == [ListDiff<String>.Move(from: 1, to: 2)])
        #expect(diff.deletions.isEmpty && diff.insertions.isEmpty)
        // More occurrences in the new list than in the old: the extra ones are inserted.
        let grown = ListDiff(fromIDs: ["x"], toIDs: ["x", "x", "y", "y"])
        #expect(grown.insertions == [1, 2, 3])
        #expect(grown.duplicateIDs.sorted() == ["x", "y"])
        // Fewer: the extra old ones are deleted.
        let shrunk = ListDiff(fromIDs: ["x", "x", "x"], toIDs: ["x"])
        #expect(shrunk.deletions == [1, 2])
        #expect(shrunk.duplicateIDs == ["x"])
    }

    @Test(arguments: 0..<100)
    func duplicateIdsStillReproduceTheNewList(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        let old = (0..<Int.random(in: 0...40, using: &random)).map { _ in Int.random(in: 0..<12, using: &random) }
        var new = old.shuffled(using: &random).dropLast(Int.random(in: 0...3, using: &random)).map { $0 }
        for _ in 0..<Int.random(in: 0...4, using: &random) {
            new.insert(Int.random(in: 0..<16, using: &random), at: Int.random(in: 0...new.count, using: &random))
        }
        let diff = ListDiff(fromIDs: old, toIDs: new)
        #expect(diff.applying(to: old, new: new) == new)
        // Every id that repeats on either side is reported, and no other.
        func repeated(_ ids: [Int]) -> Set<Int> { Set(Dictionary(grouping: ids, by: { $0 }).filter { $0.value.count > 1 }.keys) }
        #expect(Set(diff.duplicateIDs) == repeated(old).union(repeated(new)))
        #expect(diff.duplicateIDs.count == Set(diff.duplicateIDs).count)
        // Pairing in order of occurrence: as many kept as the smaller count of each id.
        let kept = Set(old).union(new).reduce(0) { total, id in total + min(old.count { $0 == id }, new.count { $0 == id }) }
        #expect(old.count - diff.deletions.count == kept)
    }

    /// A row type that is both `Identifiable` and `Hashable`: the unlabelled call must
    /// match rows by id and report updates, not treat each whole row as an id.
    struct HashableRow: Identifiable, Hashable {
        var id: Int
        var likes: Int
    }

    @Test func identifiableHashableRowsAreMatchedByID() {
        let old = (0..<10).map { HashableRow(id: $0, likes: 0) }
        var new = old
        new[3].likes = 1
        new[7].likes = 5
        let diff = ListDiff(from: old, to: new)
        #expect(diff.updates == [3, 7])
        #expect(diff.deletions.isEmpty && diff.insertions.isEmpty && diff.moves.isEmpty)
    }

    @Test func emptyToFullAndBack() {
        let full = Array(0..<50)
        #expect(ListDiff(fromIDs: [], toIDs: full).insertions == Array(0..<50))
        #expect(ListDiff(fromIDs: full, toIDs: []).deletions == Array(0..<50))
        #expect(ListDiff(fromIDs: full, toIDs: full).isEmpty)
    }

    /// An id whose hash is the same for every value: every id lands on one run of the
    /// diff's table, so each lookup walks past the others (what a poor or hostile hash
    /// does). The diff must be the one distinct hashes give.
    struct CollidingID: Hashable {
        var value: Int
        func hash(into hasher: inout Hasher) { hasher.combine(0) }
    }

    @Test(arguments: 0..<20)
    func idsWhoseHashesAllCollideGiveTheSameDiff(seed: Int) {
        var random = SeededRandom(seed: UInt64(seed))
        // Repeats included: some values occur more than once on either side.
        let old = (0..<Int.random(in: 0...50, using: &random)).map { _ in Int.random(in: 0..<40, using: &random) }
        var new = old.shuffled(using: &random).dropLast(Int.random(in: 0...5, using: &random)).map { $0 }
        for _ in 0..<Int.random(in: 0...6, using: &random) {
            new.insert(Int.random(in: 0..<60, using: &random), at: Int.random(in: 0...new.count, using: &random))
        }
        let distinct = ListDiff(fromIDs: old, toIDs: new)
        let colliding = ListDiff(fromIDs: old.map(CollidingID.init), toIDs: new.map(CollidingID.init))
        #expect(colliding.deletions == distinct.deletions)
        #expect(colliding.insertions == distinct.insertions)
        #expect(colliding.moves.map { [$0.from, $0.to] } == distinct.moves.map { [$0.from, $0.to] })
        #expect(colliding.duplicateIDs.map(\.value) == distinct.duplicateIDs)
        #expect(colliding.applying(to: old, new: new) == new)
    }
}
