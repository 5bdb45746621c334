/// The pseudo-locale `en-XA`: English wording with its letters accented and made about
/// 40% longer, in brackets, for finding text a layout cuts off or a module never put
/// through a message.
///
/// A page in the pseudo-locale shows every word a message gives as `[Ļîķéš: 3 ŀöŕé]`:
/// text that stays plain was written in code, not as a message; a bracket that is missing
/// was cut off. Arguments (names, titles, numbers) are left as they are, so the page still
/// reads as the data it shows.
///
/// A registry shows scenes in it when `SceneRegistry.offersPseudoLocale` (in `Scenery`) is on (the
/// `scenery` tool's `run --locale en-XA`, and `serve --pseudo-locale`):
///
/// ```swift
/// PseudoLocale.transformed("Load more")   // "[Ļöåð ɱöŕé ŀöŕé]"
/// MessageLocale(PseudoLocale.identifier).isPseudo   // true
/// ```
package enum PseudoLocale {
    /// The tag of the pseudo-locale: English (`en`) in the private-use region `XA`, as
    /// Android and Chromium name theirs.
    package static let identifier = "en-XA"

    /// Whether a tag names the pseudo-locale (its region is `XA`, in any case).
    package static func isPseudo(_ tag: String) -> Bool {
        let parts = tag.split(whereSeparator: { $0 == "-" || $0 == "_" })
        return parts.count >= 2 && parts.dropFirst().contains { $0.lowercased() == "xa" }
    }

    /// Text as the pseudo-locale shows it: accented, lengthened by about 40% and bracketed.
    /// Template references (`$event.name`, `$viewer`) are kept as written, so that a scene's
    /// confirmation still names what it confirms. Empty text stays empty.
    package static func transformed(_ text: String) -> String {
        guard !text.isEmpty else { return text }
        var accented = ""
        var inReference = false
        for character in text {
            if character == "$" {
                inReference = true
            } else if inReference, !(character.isLetter || character.isNumber || character == "_" || character == ".") {
                inReference = false
            }
            accented.append(inReference ? character : accent(character))
        }
        return expanded(accented, length: text.count)
    }

    /// Formatted text in brackets with padding that brings it to about 140% of `length`.
    static func expanded(_ text: String, length: Int) -> String {
        guard !text.isEmpty else { return text }
        // The brackets count towards the 40%; the rest is filler words.
        let extra = (length * 2 + 4) / 5 - 2
        guard extra > 1 else { return "[" + text + "]" }
        // Whole runs of the filler, then the part of one that is still needed: linear in
        // the length, however long the text.
        let runs = (extra - 1) / fillerWords.count
        let rest = (extra - 1) % fillerWords.count
        let filler = String(repeating: fillerWords, count: runs) + fillerWords.prefix(rest)
        return "[" + text + " " + filler + "]"
    }

    private static let fillerWords = "ŀöŕé ɱ îþšû ɱ ðöļö ŕ "

    /// A letter with an accent (or another Latin form) of the same shape; anything else as it is.
    static func accent(_ character: Character) -> Character {
        guard let scalar = character.unicodeScalars.first, character.unicodeScalars.count == 1, scalar.isASCII else { return character }
        let value = Int(scalar.value)
        switch value {
        case 0x61...0x7A: return lowercase[value - 0x61]
        case 0x41...0x5A: return uppercase[value - 0x41]
        default: return character
        }
    }

    private static let lowercase = Array("åƀçðéƒĝĥîĵķļɱñöþǫŕšţûṽŵẋýž")
    private static let uppercase = Array("ÅƁÇÐÉƑĜĤÎĴĶĻṀÑÖÞǪŔŠŢÛṼŴẊÝŽ")
}
