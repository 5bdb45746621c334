/// "Did you mean …?" for names: the closest candidate within a small edit distance.
///
/// ```swift
/// Suggestion.closest(to: "blog", in: ["blogs", "drafts"])   // "blogs"
/// ```
package enum Suggestion {
    /// The candidate closest to `name` (ignoring case), if it is close enough to be a
    /// likely typo: within a third of the name's length, and at least 2 edits.
    package static func closest(to name: String, in candidates: some Sequence<String>) -> String? {
        let limit = max(2, name.count / 3)
        var best: (candidate: String, distance: Int)?
        for candidate in candidates {
            let distance = editDistance(name.lowercased(), candidate.lowercased(), limit: limit)
            // The nearest; between equally near ones, the first in alphabetical order, so
            // the answer does not depend on the order of a set.
            if distance <= limit,
                distance < (best?.distance ?? .max) || (distance == best?.distance && candidate < (best?.candidate ?? ""))
            {
                best = (candidate, distance)
            }
        }
        return best?.candidate
    }

    /// " (did you mean 'x'?)" or an empty string, for the middle of a sentence.
    package static func didYouMean(_ name: String, in candidates: some Sequence<String>) -> String {
        closest(to: name, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
    }

    /// A hint to end a message with: "; did you mean 'x'? (parameters: a, b)" when a
    /// candidate is close, "; parameters: a, b" otherwise, "; there are no parameters" when
    /// there are none. `label` names the candidates in the plural.
    package static func hint(for name: String, in candidates: [String], listing label: String) -> String {
        let sorted = candidates.sorted()
        guard !sorted.isEmpty else { return "; there are no \(label)" }
        let list = "\(label): \(sorted.joined(separator: ", "))"
        if let closest = closest(to: name, in: sorted) { return "; did you mean '\(closest)'? (\(list))" }
        return "; \(list)"
    }

    /// Edit distance counting an insertion, a deletion, a substitution or a swap of two
    /// neighbouring characters ("titel" for "title") as one edit (optimal string
    /// alignment), giving up (returning `limit + 1`) past `limit`.
    package static func editDistance(_ a: String, _ b: String, limit: Int) -> Int {
        let a = Array(a)
        let b = Array(b)
        if abs(a.count - b.count) > limit { return limit + 1 }
        if a.isEmpty || b.isEmpty { return max(a.count, b.count) }
        var beforePrevious = [Int](repeating: 0, count: b.count + 1)
        var previous = Array(0...b.count)
        var current = [Int](repeating: 0, count: b.count + 1)
        for i in 1...a.count {
            current[0] = i
            var rowMinimum = current[0]
            for j in 1...b.count {
                current[j] = min(previous[j] + 1, current[j - 1] + 1, previous[j - 1] + (a[i - 1] == b[j - 1] ? 0 : 1))
                if i > 1, j > 1, a[i - 1] == b[j - 2], a[i - 2] == b[j - 1] {
                    current[j] = min(current[j], beforePrevious[j - 2] + 1)
                }
                rowMinimum = min(rowMinimum, current[j])
            }
            if rowMinimum > limit { return limit + 1 }
            (beforePrevious, previous, current) = (previous, current, beforePrevious)
        }
        return previous[b.count]
    }
}
