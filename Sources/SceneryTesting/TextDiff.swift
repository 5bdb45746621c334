/// A line diff for failure messages: `-` expected, `+` actual, with line numbers.
public enum TextDiff {
    /// The lines that differ between two texts, or an empty string if they are equal.
    public static func describe(expected: String, actual: String) -> String {
        let old = expected.split(separator: "\n", omittingEmptySubsequences: false)
        let new = actual.split(separator: "\n", omittingEmptySubsequences: false)
        var lines: [String] = []
        for index in 0..<max(old.count, new.count) {
            let a = index < old.count ? String(old[index]) : nil
            let b = index < new.count ? String(new[index]) : nil
            guard a != b else { continue }
            if let a { lines.append("\(index + 1) - \(a)") }
            if let b { lines.append("\(index + 1) + \(b)") }
        }
        return lines.joined(separator: "\n")
    }
}
