import Scenery

/// `ListDiff` on 1k-100k rows: against the standard library, and with duplicate ids.
enum DiffBenchmark {
    static func run(_ options: BenchmarkOptions) -> Table {
        var table = Table(
            "List diff: 10% inserts, deletes, moves and updates",
            header: ["rows", "contender", "min", "median", "per row", "moves reported", "median vs ListDiff"])
        for count in [1_000, 10_000, 100_000] {
            let (old, new) = listWorkload(count: count)
            var diff = ListDiff<Int>(fromIDs: [], toIDs: [])
            var bodies: [() -> Void] = [{ diff = ListDiff(from: old, to: new) }]
            let timesLibrary = count < 100_000 || options.full
            var libraryChanges = 0
            if timesLibrary { bodies.append { libraryChanges = new.difference(from: old).count } }
            let rounds = options.rounds(count >= 100_000 ? (timesLibrary ? 2 : 9) : count >= 10_000 ? 7 : 21)
            let samples = Measure.interleaved(rounds: rounds, bodies)
            precondition(diff.applying(to: old, new: new) == new, "the diff must reproduce the new list")
            let ours = samples[0]
            table.add(
                "\(count)", "ListDiff", Measure.format(ours.minimum), Measure.format(ours.median),
                String(format: "%.0f ns", ours.median / Double(count) * 1e9), "\(diff.moves.count)", "1×")
            if timesLibrary {
                let library = samples[1]
                table.add(
                    "", "difference(from:)", Measure.format(library.minimum), Measure.format(library.median),
                    String(format: "%.0f ns", library.median / Double(count) * 1e9), "none (\(libraryChanges) removals and insertions)",
                    String(format: "%.0f× slower", library.median / ours.median))
            } else {
                table.add("", "difference(from:)", "skipped (add --full: minutes)", "", "", "", "")
            }
        }
        table.notes.append(
            "The workload deletes, moves and updates 10% of the rows each, then inserts 10%; it picks rows at random, "
                + "so some rows are moved twice and about 95% of the requested moves are distinct rows. ListDiff reports "
                + "a row as moved only if its order relative to the rows that stay changed (a longest increasing subsequence).")
        return table
    }

    static func runDuplicates(_ options: BenchmarkOptions) -> Table {
        var table = Table(
            "List diff with duplicate ids: 1% of the rows share an id with another",
            header: ["rows", "ids", "min", "median", "moves reported", "duplicate ids", "median vs unique", "target ≤ 1.5×"])
        for count in [1_000, 10_000, 100_000] {
            let unique = listWorkload(count: count)
            let duplicated = listWorkload(count: count, duplicatesPerHundred: 1)
            var diffs = [ListDiff<Int>](repeating: ListDiff(fromIDs: [], toIDs: []), count: 2)
            let samples = Measure.interleaved(
                rounds: options.rounds(count >= 100_000 ? 9 : 21),
                [
                    { diffs[0] = ListDiff(from: unique.old, to: unique.new) },
                    { diffs[1] = ListDiff(from: duplicated.old, to: duplicated.new) },
                ])
            precondition(diffs[1].applying(to: duplicated.old, new: duplicated.new) == duplicated.new, "the diff must reproduce the new list")
            let ratio = samples[1].median / samples[0].median
            table.add(
                "\(count)", "unique", Measure.format(samples[0].minimum), Measure.format(samples[0].median), "\(diffs[0].moves.count)", "0", "1×", "")
            table.add(
                "", "1% duplicates", Measure.format(samples[1].minimum), Measure.format(samples[1].median), "\(diffs[1].moves.count)",
                "\(diffs[1].duplicateIDs.count)", Measure.ratio(ratio), verdict(ratio <= 1.5))
        }
        table.notes.append(
            "Duplicates are paired in order: the k-th occurrence of an id in the old list with the k-th in the new one; "
                + "moves are minimal for that pairing.")
        return table
    }
}
