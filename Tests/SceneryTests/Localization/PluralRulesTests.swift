import Testing

@testable import Scenery
@testable import SceneryText

@Suite struct PluralRulesTests {
    @Test func everyGeneratedRuleParses() throws {
        for set in PluralRules.cldrRuleSets {
            for (category, text) in set {
                #expect(throws: Never.self, "\(category): \(text)") { try PluralCondition(parsing: text) }
            }
        }
        #expect(PluralRules.cldrRuleSetIndex.count > 300)
    }

    @Test(arguments: [
        ("en", 1, PluralCategory.one), ("en", 0, .other), ("en", 2, .other), ("en", 21, .other),
        ("pl", 1, .one), ("pl", 2, .few), ("pl", 4, .few), ("pl", 5, .many), ("pl", 12, .many), ("pl", 22, .few), ("pl", 112, .many),
        ("ru", 1, .one), ("ru", 21, .one), ("ru", 11, .many), ("ru", 3, .few),
        ("ar", 0, .zero), ("ar", 1, .one), ("ar", 2, .two), ("ar", 3, .few), ("ar", 10, .few), ("ar", 11, .many), ("ar", 99, .many),
        ("ar", 100, .other), ("ar", 103, .few),
        ("he", 1, .one), ("he", 2, .two), ("he", 3, .other),
        ("fr", 0, .one), ("fr", 1, .one), ("fr", 2, .other), ("fr", 1_000_000, .many),
        ("zh-Hans", 1, .other), ("ja", 1, .other),
    ])
    func wholeNumbersFallInTheirLanguagesCategory(language: String, number: Int, expected: PluralCategory) {
        #expect(PluralRules(for: language).category(for: number) == expected)
    }

    @Test func visibleFractionDigitsChangeTheCategory() {
        let english = PluralRules(for: "en")
        #expect(english.category(for: PluralOperands(1.0, fractionDigits: 0)) == .one)
        #expect(english.category(for: PluralOperands(1.0, fractionDigits: 1)) == .other)
        let polish = PluralRules(for: "pl")
        #expect(polish.category(for: 2.5) == .other)
        let operands = PluralOperands(1.50, fractionDigits: 2)
        #expect([operands.i, operands.v, operands.w, operands.f, operands.t] == [1, 2, 1, 50, 5])
    }

    @Test func theCategoriesSayWhatAMessageMustCover() {
        #expect(PluralRules(for: "en").categories == [.one, .other])
        #expect(PluralRules(for: "zh-Hans").categories == [.other])
        #expect(PluralRules(for: "pl").categories == [.one, .few, .many, .other])
        #expect(PluralRules(for: "ar").categories == [.zero, .one, .two, .few, .many, .other])
    }

    @Test func aTagFallsBackToItsLanguageAndAnUnknownOneToOther() {
        #expect(PluralRules(for: "pl-PL").languageTag == "pl")
        #expect(PluralRules(for: "pt_PT").category(for: 0) == .other)
        #expect(PluralRules(for: "pt").category(for: 0) == .one)
        let unknown = PluralRules(for: "xx-Unknown")
        #expect(!unknown.isKnown)
        #expect(unknown.categories == [.other])
        #expect(unknown.category(for: 1) == .other)
    }

    @Test(arguments: ["", "n", "n in", "q in 1", "n in 1..", "n mod in 1", "n in 1 but v in 0", "n in 4..2"])
    func aMalformedRuleIsAnErrorNotACrash(rule: String) {
        #expect(throws: PluralCondition.SyntaxError.self) { try PluralCondition(parsing: rule) }
    }

    @Test func bothSpellingsOfARuleAgree() throws {
        let cldr = try PluralCondition(parsing: "v = 0 and i % 10 = 2..4 and i % 100 != 12..14")
        let babel = try PluralCondition(parsing: "v in 0 and i mod 10 in 2..4 and i mod 100 not in 12..14")
        for number in 0..<300 {
            #expect(cldr.isSatisfied(by: PluralOperands(number)) == babel.isSatisfied(by: PluralOperands(number)))
        }
        let within = try PluralCondition(parsing: "n within 0..2")
        #expect(within.isSatisfied(by: PluralOperands(1.5)))
        #expect(try !PluralCondition(parsing: "n in 0..2").isSatisfied(by: PluralOperands(1.5)))
    }
}
