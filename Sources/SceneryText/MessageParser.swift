/// Reads ICU MessageFormat into ``Message/Part``s.
struct MessageParser {
    private let characters: [Character]
    private var position = 0
    /// How deep in plural and select cases the parser is (`#` means the number inside a plural).
    private var pluralDepth = 0
    private var nesting = 0

    /// Messages nest plurals and selects; deeper than this is refused, not recursed into.
    static let maximumNesting = 16

    init(_ source: String) { characters = Array(source) }

    mutating func parseMessage() throws(Message.SyntaxError) -> [Message.Part] {
        let parts = try parseParts(untilCloseBrace: false)
        return parts
    }

    private mutating func parseParts(untilCloseBrace: Bool) throws(Message.SyntaxError) -> [Message.Part] {
        var parts: [Message.Part] = []
        var text = ""
        func flush() {
            if !text.isEmpty { parts.append(.text(text)) }
            text = ""
        }
        while position < characters.count {
            let character = characters[position]
            switch character {
            case "'":
                text += readQuoted()
            case "{":
                flush()
                parts.append(try parseArgument())
            case "}":
                guard untilCloseBrace else {
                    throw Message.SyntaxError(offset: position, reason: "this '}' closes nothing; write '}' (in apostrophes) for a literal brace")
                }
                flush()
                return parts
            case "#" where pluralDepth > 0:
                flush()
                parts.append(.pound)
                position += 1
            default:
                text.append(character)
                position += 1
            }
        }
        if untilCloseBrace {
            throw Message.SyntaxError(offset: characters.count, reason: "a case is not closed; add '}'")
        }
        flush()
        return parts
    }

    /// An apostrophe: `''` is one apostrophe; before `{`, `}`, `#` or `|` it quotes up to the
    /// next lone apostrophe; elsewhere it is itself.
    private mutating func readQuoted() -> String {
        let next = position + 1 < characters.count ? characters[position + 1] : nil
        if next == "'" {
            position += 2
            return "'"
        }
        guard let next, "{}#|".contains(next) else {
            position += 1
            return "'"
        }
        position += 1
        var text = ""
        while position < characters.count {
            if characters[position] == "'" {
                if position + 1 < characters.count, characters[position + 1] == "'" {
                    text.append("'")
                    position += 2
                    continue
                }
                position += 1
                return text
            }
            text.append(characters[position])
            position += 1
        }
        return text
    }

    private mutating func parseArgument() throws(Message.SyntaxError) -> Message.Part {
        let open = position
        position += 1
        nesting += 1
        defer { nesting -= 1 }
        guard nesting <= Self.maximumNesting else {
            throw Message.SyntaxError(offset: open, reason: "messages nest at most \(Self.maximumNesting) deep; split this one")
        }
        skipSpaces()
        let name = readWord()
        guard !name.isEmpty else {
            throw Message.SyntaxError(offset: position, reason: "expected an argument name after '{', such as {count}; write '{' for a literal brace")
        }
        guard name.first.map({ $0.isLetter || $0 == "_" || $0.isNumber }) == true, name.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" })
        else { throw Message.SyntaxError(offset: position - name.count, reason: "\(name.quoted) is not an argument name (letters, digits, _)") }
        skipSpaces()
        if try take("}") { return .argument(name, .plain) }
        guard try take(",") else {
            throw Message.SyntaxError(offset: position, reason: "expected '}' or ',' after the argument name \(name.quoted)")
        }
        skipSpaces()
        let typeOffset = position
        let type = readWord()
        skipSpaces()
        switch type {
        case "number", "date", "time":
            var style = ""
            if try take(",") {
                skipSpaces()
                style = readWord()
                skipSpaces()
            }
            let styleOffset = position - style.count
            guard try take("}") else { throw Message.SyntaxError(offset: position, reason: "expected '}' to close {\(name), \(type)}") }
            if type == "number" {
                guard let number = Message.NumberStyle(rawValue: style) else {
                    throw Message.SyntaxError(offset: styleOffset, reason: "the number style \(style.quoted) is not supported; use integer, percent or none")
                }
                return .argument(name, .number(number))
            }
            guard let date = style.isEmpty ? .medium : Message.DateStyle(rawValue: style) else {
                throw Message.SyntaxError(offset: styleOffset, reason: "the \(type) style \(style.quoted) is not supported; use short, medium, long or full")
            }
            return .argument(name, type == "date" ? .date(date) : .time(date))
        case "plural":
            guard try take(",") else { throw Message.SyntaxError(offset: position, reason: "expected ',' and cases after {\(name), plural") }
            return try parsePlural(name, open: open)
        case "select":
            guard try take(",") else { throw Message.SyntaxError(offset: position, reason: "expected ',' and cases after {\(name), select") }
            return try parseSelect(name, open: open)
        case "selectordinal", "spellout", "ordinal", "duration":
            throw Message.SyntaxError(offset: typeOffset, reason: "\(type.quoted) is not supported; use number, date, time, plural or select")
        default:
            throw Message.SyntaxError(
                offset: typeOffset, reason: "\(type.quoted) is not an argument type; use number, date, time, plural or select")
        }
    }

    private mutating func parsePlural(_ name: String, open: Int) throws(Message.SyntaxError) -> Message.Part {
        skipSpaces()
        var offset = 0
        if matches("offset:") {
            position += 7
            skipSpaces()
            let start = position
            let digits = readWord()
            guard let number = Int(digits), number >= 0, number < 1_000_000 else {
                throw Message.SyntaxError(offset: start, reason: "offset: needs a whole number such as offset:1")
            }
            offset = number
        }
        var cases: [Message.PluralCase] = []
        while true {
            skipSpaces()
            if try take("}") { break }
            let selectorOffset = position
            let word = readWord()
            let selector: Message.PluralCase.Selector
            if word.hasPrefix("="), let number = Int(word.dropFirst()) {
                selector = .exact(number)
            } else if let category = PluralCategory(rawValue: word) {
                selector = .category(category)
            } else if word.isEmpty {
                throw Message.SyntaxError(offset: position, reason: "expected a plural case (zero, one, two, few, many, other or =N) or '}'")
            } else {
                throw Message.SyntaxError(
                    offset: selectorOffset, reason: "\(word.quoted) is not a plural case; use zero, one, two, few, many, other or =N")
            }
            if cases.contains(where: { $0.selector == selector }) {
                throw Message.SyntaxError(offset: selectorOffset, reason: "the case \(word.quoted) is given twice; keep one")
            }
            skipSpaces()
            guard try take("{") else { throw Message.SyntaxError(offset: position, reason: "expected '{' to open the case \(word.quoted)") }
            pluralDepth += 1
            let parts = try parseParts(untilCloseBrace: true)
            pluralDepth -= 1
            position += 1
            cases.append(Message.PluralCase(selector: selector, parts: parts, offset: selectorOffset))
        }
        guard cases.contains(where: { $0.selector == .category(.other) }) else {
            throw Message.SyntaxError(offset: open, reason: "the plural of \(name.quoted) has no 'other' case; add other {…}")
        }
        return .plural(name, offset: offset, cases: cases)
    }

    private mutating func parseSelect(_ name: String, open: Int) throws(Message.SyntaxError) -> Message.Part {
        var cases: [(key: String, parts: [Message.Part])] = []
        while true {
            skipSpaces()
            if try take("}") { break }
            let keyOffset = position
            let key = readWord()
            guard !key.isEmpty, key.allSatisfy({ $0.isLetter || $0.isNumber || $0 == "_" || $0 == "-" }) else {
                throw Message.SyntaxError(offset: keyOffset, reason: "expected a select case (a word such as other) or '}'")
            }
            if cases.contains(where: { $0.key == key }) {
                throw Message.SyntaxError(offset: keyOffset, reason: "the case \(key.quoted) is given twice; keep one")
            }
            skipSpaces()
            guard try take("{") else { throw Message.SyntaxError(offset: position, reason: "expected '{' to open the case \(key.quoted)") }
            let depth = pluralDepth
            pluralDepth = 0
            let parts = try parseParts(untilCloseBrace: true)
            pluralDepth = depth
            position += 1
            cases.append((key, parts))
        }
        guard cases.contains(where: { $0.key == "other" }) else {
            throw Message.SyntaxError(offset: open, reason: "the select of \(name.quoted) has no 'other' case; add other {…}")
        }
        return .select(name, cases: cases)
    }

    private mutating func skipSpaces() {
        while position < characters.count, characters[position].isWhitespace { position += 1 }
    }

    /// Letters, digits, `_`, `-`, `=` and `:`-free words: names, types, styles, selectors.
    private mutating func readWord() -> String {
        var word = ""
        while position < characters.count {
            let character = characters[position]
            guard !character.isWhitespace, !"{},'#".contains(character) else { break }
            word.append(character)
            position += 1
        }
        return word
    }

    private func matches(_ text: String) -> Bool {
        let wanted = Array(text)
        return position + wanted.count <= characters.count && Array(characters[position..<position + wanted.count]) == wanted
    }

    private mutating func take(_ character: Character) throws(Message.SyntaxError) -> Bool {
        guard position < characters.count else {
            throw Message.SyntaxError(offset: characters.count, reason: "the message ends inside an argument; close it with '}'")
        }
        guard characters[position] == character else { return false }
        position += 1
        return true
    }
}
