extension TextField {
    /// The most combining marks one character may carry: 30, as Unicode's stream-safe text
    /// format allows. A "letter" of 20,000 marks counts as one character, so every field
    /// refuses it whatever its length limit (``Form/problems(in:)``).
    public static let mostMarksPerCharacter = 30

    /// The bytes (UTF-8) a length limit allows per character: a limit of 500 characters
    /// takes at most 8,000 bytes. Any letter, emoji or flag a person types fits; characters
    /// built of many marks do not.
    public static let bytesPerCharacter = 16

    /// What is wrong with `text` under a limit of `maximum` characters, in words for the
    /// person typing: more characters than the limit, or more bytes than
    /// ``bytesPerCharacter`` times it; `nil` when it is fine.
    ///
    /// Stores and services check what they keep with it too, so a limit means the same
    /// wherever the text arrives.
    ///
    /// ```swift
    /// TextField.lengthProblem(of: summary, atMost: 500, label: "A summary")
    /// // "A summary is at most 500 characters; it has 512."
    /// ```
    public static func lengthProblem(of text: String, atMost maximum: Int, label: String) -> String? {
        // The bytes first: counting characters walks the text, and a huge one is refused
        // without walking it.
        if let problem = byteProblem(of: text, atMost: maximum, label: label) { return problem }
        let count = text.count
        guard count > maximum else { return nil }
        return "\(label) is at most \(maximum) characters; it has \(count)."
    }

    /// What is wrong with `text` when it has more bytes than a limit of `maximum` characters
    /// allows, or `nil`.
    package static func byteProblem(of text: String, atMost maximum: Int, label: String) -> String? {
        let bytes = text.utf8.count
        guard bytes > maximum * bytesPerCharacter else { return nil }
        return
            "\(label) is at most \(maximum) characters of \(bytesPerCharacter) bytes (\(maximum * bytesPerCharacter) bytes); it has \(bytes) bytes. Shorten it, or remove marks stacked on its letters."
    }

    /// What is wrong with a character of `text` that carries more than
    /// ``mostMarksPerCharacter`` combining marks, or `nil`.
    ///
    /// ```swift
    /// TextField.markProblem(in: "Z" + String(repeating: "\u{0301}", count: 40), label: "A title")
    /// // "A title holds a character with 40 marks stacked on it; at most 30 are taken. …"
    /// ```
    public static func markProblem(in text: String, label: String) -> String? {
        // Only a character of more scalars than the limit needs a closer look.
        guard text.unicodeScalars.count > mostMarksPerCharacter else { return nil }
        for character in text where character.unicodeScalars.count > mostMarksPerCharacter + 1 {
            let marks = character.unicodeScalars.count - 1
            return "\(label) holds a character with \(marks) marks stacked on it; at most \(mostMarksPerCharacter) are taken. Type the text without them."
        }
        return nil
    }
}
