/// A language's plural rules, from CLDR: which `PluralCategory` a number falls in.
///
/// The rules of every language CLDR knows are built in (generated from CLDR data by
/// `generate-plural-rules.py`, beside this file); Scenery needs no ICU for them.
///
/// ```swift
/// let polish = PluralRules(for: "pl")
/// polish.category(for: 1)   // .one   "1 blog"
/// polish.category(for: 3)   // .few   "3 blogi"
/// polish.category(for: 5)   // .many  "5 blogów"
/// polish.categories         // [.one, .few, .many, .other]
/// ```
package struct PluralRules: Sendable, Hashable {
    /// The language tag whose rules these are (the nearest CLDR has; "root" when none).
    package let languageTag: String
    private let rules: [Rule]

    /// The rules of a BCP 47 language tag, falling back from the most specific tag CLDR
    /// has ("pt-PT", then "pt"); a language CLDR does not know gets `other` for
    /// everything (and ``isKnown`` is `false`).
    package init(for languageTag: String) {
        for candidate in LanguageTag.fallbacks(of: languageTag) {
            if let index = Self.cldrRuleSetIndex[candidate] {
                self.languageTag = candidate
                rules = Self.ruleSet(at: index)
                return
            }
        }
        self.languageTag = "root"
        rules = []
    }

    /// Whether CLDR has rules for the language (else every number is `other`).
    package var isKnown: Bool { languageTag != "root" }

    /// The categories a message in this language must be ready for, `other` last.
    package var categories: [PluralCategory] { rules.map(\.category) + [.other] }

    /// The category of a number shown as the operands say.
    package func category(for operands: PluralOperands) -> PluralCategory {
        rules.first { $0.condition.isSatisfied(by: operands) }?.category ?? .other
    }

    /// The category of a whole number.
    package func category(for value: Int) -> PluralCategory { category(for: PluralOperands(value)) }

    /// The category of a number shown with as many fraction digits as it needs.
    package func category(for value: Double) -> PluralCategory { category(for: PluralOperands(value)) }

    package static func == (lhs: Self, rhs: Self) -> Bool { lhs.languageTag == rhs.languageTag }
    package func hash(into hasher: inout Hasher) { hasher.combine(languageTag) }

    struct Rule: Sendable {
        var category: PluralCategory
        var condition: PluralCondition
    }

    /// The rule sets parsed so far: each is parsed the first time a language needs it, not
    /// all of CLDR's at a command's start.
    private static let parsedRuleSets = Locked<[Int: [Rule]]>([:])

    private static func ruleSet(at index: Int) -> [Rule] {
        if let parsed = parsedRuleSets.withLock({ $0[index] }) { return parsed }
        let parsed = cldrRuleSets[index].map { category, text in
            // The generated data is CLDR's own; a rule that does not parse is a bug in the
            // generator, caught by the tests that parse every set.
            Rule(category: category, condition: (try? PluralCondition(parsing: text)) ?? .never)
        }
        parsedRuleSets.withLock { $0[index] = parsed }
        return parsed
    }
}
