/// One CLDR plural rule's condition, such as `v = 0 and i % 10 = 2..4 and i % 100 != 12..14`.
///
/// Both CLDR's spelling (`=`, `!=`, `%`) and the older one Babel writes (`in`, `not in`,
/// `mod`, `within`, `is`) are read.
struct PluralCondition: Sendable {
    /// Alternatives (`or`) of conjunctions (`and`) of relations.
    var alternatives: [[Relation]]

    /// A condition nothing satisfies.
    static let never = PluralCondition(alternatives: [])

    struct Relation: Sendable {
        var operand: Character
        var modulus: Int?
        var isNegated: Bool
        /// Whether a value between whole numbers of a range counts (`within`).
        var isWithin: Bool
        var ranges: [ClosedRange<Int>]

        func isSatisfied(by operands: PluralOperands) -> Bool {
            var value = operands.value(of: operand)
            if let modulus, modulus > 0 { value = value.truncatingRemainder(dividingBy: Double(modulus)) }
            let contained = ranges.contains { range in
                if isWithin { return Double(range.lowerBound) <= value && value <= Double(range.upperBound) }
                return value.rounded() == value && Double(range.lowerBound) <= value && value <= Double(range.upperBound)
            }
            return contained != isNegated
        }
    }

    func isSatisfied(by operands: PluralOperands) -> Bool {
        alternatives.contains { relations in relations.allSatisfy { $0.isSatisfied(by: operands) } }
    }

    struct SyntaxError: Error, Equatable {
        var message: String
    }

    init(alternatives: [[Relation]]) { self.alternatives = alternatives }

    /// Parses a condition written in CLDR's plural rule syntax.
    init(parsing text: String) throws(SyntaxError) {
        let words = Self.tokens(of: text)
        var position = 0
        func next() -> String? { position < words.count ? words[position] : nil }
        func take() -> String? {
            defer { position += 1 }
            return next()
        }
        var alternatives: [[Relation]] = [[]]
        while true {
            guard let operandWord = take(), operandWord.count == 1, let operand = operandWord.first, "nivwftec".contains(operand) else {
                throw SyntaxError(message: "expected an operand (n, i, v, w, f, t, e) in \(text.quoted)")
            }
            var modulus: Int?
            if next() == "mod" || next() == "%" {
                position += 1
                guard let word = take(), let number = Int(word) else { throw SyntaxError(message: "expected a number after mod in \(text.quoted)") }
                modulus = number
            }
            var negated = false
            var within = false
            switch take() {
            case "=", "in": break
            case "!=": negated = true
            case "within": within = true
            case "is":
                if next() == "not" {
                    position += 1
                    negated = true
                }
            case "not":
                negated = true
                switch take() {
                case "in": break
                case "within": within = true
                default: throw SyntaxError(message: "expected in or within after not in \(text.quoted)")
                }
            default: throw SyntaxError(message: "expected =, !=, in or within in \(text.quoted)")
            }
            guard let list = take() else { throw SyntaxError(message: "expected a range list in \(text.quoted)") }
            var ranges: [ClosedRange<Int>] = []
            for item in list.split(separator: ",", omittingEmptySubsequences: false) {
                let bounds = item.split(separator: "..", omittingEmptySubsequences: false)
                guard (1...2).contains(bounds.count), let low = Int(bounds[0]), let high = Int(bounds[bounds.count - 1]), low <= high
                else { throw SyntaxError(message: "\(String(item).quoted) is not a number or a range in \(text.quoted)") }
                ranges.append(low...high)
            }
            alternatives[alternatives.count - 1].append(
                Relation(operand: operand, modulus: modulus, isNegated: negated, isWithin: within, ranges: ranges))
            switch take() {
            case nil:
                self.alternatives = alternatives
                return
            case "and": continue
            case "or": alternatives.append([])
            case let word?: throw SyntaxError(message: "expected and or or, not \(word.quoted), in \(text.quoted)")
            }
        }
    }

    /// Words of a rule, with a range list (`2..4,12`) kept as one word and `!=` as one.
    private static func tokens(of text: String) -> [String] {
        var words: [String] = []
        var word = ""
        func flush() {
            if !word.isEmpty { words.append(word) }
            word = ""
        }
        var characters = Array(text)[...]
        while let character = characters.popFirst() {
            switch character {
            case " ": flush()
            case "=", "%":
                flush()
                words.append(String(character))
            case "!":
                flush()
                if characters.first == "=" { characters.removeFirst() }
                words.append("!=")
            case ",":
                word.append(character)
                while characters.first == " " { characters.removeFirst() }
            default: word.append(character)
            }
        }
        flush()
        return words
    }
}
