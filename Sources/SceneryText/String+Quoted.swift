extension String {
    /// The text in single quotes for a message, short enough to read: hostile or mistaken
    /// input (a 10,000-digit viewer id, a path pasted twice) is shortened to its first
    /// characters and its length, and control characters, line and paragraph separators and
    /// bidirectional controls are written as escapes so that input cannot end a line, colour a
    /// terminal or reorder what a person reads.
    ///
    /// ```swift
    /// "42".quoted                                   // '42'
    /// String(repeating: "9", count: 10_000).quoted  // '999…999…' (10000 characters), 200 kept
    /// "a\nb".quoted                                 // 'a\nb'
    /// ```
    package var quoted: String { quoted(limit: 200) }

    /// ``quoted`` with the number of characters kept before the ellipsis.
    package func quoted(limit: Int) -> String {
        let count = self.count
        let kept = count > limit ? String(prefix(limit)) : self
        var escaped = ""
        for scalar in kept.unicodeScalars {
            switch scalar {
            case "\n": escaped += "\\n"
            case "\r": escaped += "\\r"
            case "\t": escaped += "\\t"
            case _ where scalar.value < 0x20 || (0x7F...0x9F).contains(scalar.value) || Self.isLineOrDirectionControl(scalar):
                escaped += "\\u{\(String(scalar.value, radix: 16, uppercase: true))}"
            default: escaped.unicodeScalars.append(scalar)
            }
        }
        return count > limit ? "'\(escaped)…' (\(count) characters)" : "'\(escaped)'"
    }

    /// U+2028 and U+2029 (which some log readers break lines at), and the bidirectional
    /// controls (which reorder the text around them), as the terminal text of `Scenery` removes them.
    private static func isLineOrDirectionControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x2028, 0x2029, 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: true
        default: false
        }
    }
}

extension Substring {
    /// ``Swift/String/quoted`` for a part of a string.
    package var quoted: String { String(self).quoted }
}
