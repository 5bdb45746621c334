import Foundation
import Testing

@testable import Scenery

@Suite struct MessageTests {
    let english = MessageLocale("en")

    @Test(arguments: [
        (0, "No blogs"), (1, "1 blog"), (2, "2 blogs"), (1200, "1,200 blogs"),
    ])
    func aPluralPicksItsCaseAndShowsTheNumber(count: Int, expected: String) throws {
        let message = try Message("{count, plural, =0 {No blogs} one {# blog} other {# blogs}}")
        #expect(message.format(["count": .integer(count)], in: english) == expected)
    }

    @Test func polishAndArabicGetTheirOwnCategories() throws {
        let polish = try Message("{n, plural, one {# blog} few {# blogi} many {# blogów} other {# bloga}}")
        let pl = MessageLocale("pl")
        #expect([1, 2, 5, 22, 25].map { polish.format(["n": .integer($0)], in: pl) } == ["1 blog", "2 blogi", "5 blogów", "22 blogi", "25 blogów"])
        #expect(polish.format(["n": .number(2.5)], in: pl) == "2,5 bloga")
        let arabic = try Message("{n, plural, zero {صفر} one {واحد} two {اثنان} few {قليل} many {كثير} other {آخر}}")
        let ar = MessageLocale("ar")
        #expect([0, 1, 2, 3, 11, 100].map { arabic.format(["n": .integer($0)], in: ar) } == ["صفر", "واحد", "اثنان", "قليل", "كثير", "آخر"])
    }

    @Test func offsetAndSelectAndNesting() throws {
        let message = try Message(
            "{gender, select, female {She} male {He} other {They}} liked it{others, plural, offset:1 =0 {} =1 { with {first}} other { with {first} and # others}}."
        )
        #expect(message.format(["gender": "female", "others": 0, "first": "Bo"], in: english) == "She liked it.")
        #expect(message.format(["gender": "male", "others": 1, "first": "Bo"], in: english) == "He liked it with Bo.")
        #expect(message.format(["gender": "x", "others": 4, "first": "Bo"], in: english) == "They liked it with Bo and 3 others.")
    }

    @Test func theSmallestIntegerLessAnOffsetIsNoCrash() throws {
        let message = try Message("{n, plural, offset:1 other {# more}}")
        #expect(message.format(["n": .integer(Int.min)], in: english).hasSuffix(" more"))
    }

    @Test func numbersAndDatesFollowTheLocale() throws {
        let message = try Message("{n, number} · {p, number, percent} · {r, number, integer} · {d, date, long}")
        let day = Date(timeIntervalSince1970: 1_700_000_000)
        let text = message.format(["n": 1234.5, "p": 0.25, "r": 2.6, "d": .date(day)], in: english)
        #expect(text.hasPrefix("1,234.5 · 25% · 3 · "))
        #expect(text.contains("2023"))
        #expect(text.contains("November"))
        #expect(try Message("{n}").format(["n": 1_234_567], in: MessageLocale("de")) == "1.234.567")
    }

    @Test func apostrophesQuoteBracesAndPounds() throws {
        #expect(try Message("It''s '{literal}' and '#'").format(in: english) == "It's {literal} and #")
        #expect(try Message("{n, plural, other {'#' is #}}").format(["n": 3], in: english) == "# is 3")
        #expect(try Message("don't").format(in: english) == "don't")
    }

    @Test func aMissingArgumentIsShownNotHidden() throws {
        #expect(try Message("By {name}").format(in: english) == "By {name}")
    }

    @Test(arguments: [
        ("By {name", 8), ("{}", 1), ("a } b", 2), ("{n, plural, one {x}}", 0), ("{n, select, a {x}}", 0),
        ("{n, plural, lots {x} other {y}}", 12), ("{n, number, currency}", 12), ("{n, spellout}", 4),
        ("{n, plural, one {x} one {y} other {z}}", 20), ("{n, plural, other {unclosed}", 28), ("{na me}", 4),
    ])
    func malformedMessagesSayWhereAndWhat(source: String, offset: Int) {
        #expect {
            try Message(source)
        } throws: { error in
            guard let error = error as? Message.SyntaxError else { return false }
            return error.offset == offset && !error.reason.isEmpty
        }
    }

    @Test func deepNestingIsRefusedNotRecursedInto() {
        let deep = String(repeating: "{a, select, other {", count: 40) + "x" + String(repeating: "}}", count: 40)
        #expect(throws: Message.SyntaxError.self) { try Message(deep) }
    }

    @Test func hostileTextIsBoundedAndIsolated() throws {
        let message = try Message("Hello {name}, welcome.")
        let long = String(repeating: "a", count: 10_000)
        let formatted = message.format(["name": .text(long)], in: english)
        #expect(formatted.count == "Hello , welcome.".count + Message.Argument.maximumTextLength)
        #expect(formatted.contains("…"))
        let override = "\u{202E}evil"
        let isolated = message.format(["name": .text(override)], in: english)
        #expect(isolated == "Hello \u{2068}\u{202E}evil\u{2069}, welcome.")
        #expect(message.format(["name": "Ann"], in: english) == "Hello Ann, welcome.")
        #expect(message.format(["name": "Ann"], in: MessageLocale("ar")) == "Hello \u{2068}Ann\u{2069}, welcome.")
    }

    /// A date in a right-to-left sentence is a run of digits and separators: unisolated, its
    /// parts read in the wrong order (a byline's date showed reversed in Arabic).
    @Test func aDateInARightToLeftSentenceIsIsolated() throws {
        let message = try Message("بقلم {author} · {edited, date, medium}")
        let day = Date(timeIntervalSince1970: 1_767_862_800)  // 2026-01-08
        let arabic = message.format(["author": "Alice", "edited": .date(day)], in: MessageLocale("ar"))
        let dateRun = try #require(arabic.split(separator: "·").last)
        #expect(dateRun.trimmingCharacters(in: .whitespaces).hasPrefix("\u{2068}") && dateRun.hasSuffix("\u{2069}"), "\(arabic.debugDescription)")
        #expect(!message.format(["author": "Alice", "edited": .date(day)], in: english).contains("\u{2068}"), "left to right: as it is")
    }

    @Test func checkingFindsUnknownArgumentsWrongKindsAndMissingCategories() throws {
        let provided = [MessageArgumentSpec("count", .number), MessageArgumentSpec("name", .text)]
        #expect(try Message("{count} by {name}").problems(against: provided).isEmpty)
        let unknown = try Message("{total} by {name}").problems(against: provided)
        #expect(unknown == ["the message uses {total}, which the module does not give; it gives {count}, {name}"])
        let wrongKind = try Message("{name, plural, other {#}}").problems(against: provided)
        #expect(wrongKind == ["the message uses {name} as a plural, but it is a text; use it as {name}"])
        let englishOnly = try Message("{count, plural, one {# blog} other {# blogs}}")
        #expect(englishOnly.missingPluralCategories(for: PluralRules(for: "en")).isEmpty)
        let missing = englishOnly.missingPluralCategories(for: PluralRules(for: "pl"))
        #expect(missing.map(\.argument) == ["count"])
        #expect(missing.first?.missing == [.few, .many])
        let translation = try Message("{count, plural, other {# 篇}}")
        #expect(translation.droppedArguments(comparedWith: try Message("{count} by {name}")) == ["name"])
    }

    @Test func aMessageParameterIsCheckedAgainstItsArguments() throws {
        let spec = ParameterSpec.message("likes", default: "Likes: {count}", arguments: [MessageArgumentSpec("count", .number)])
        #expect(spec.restrictionProblem(.string("赞 {count}")) == nil)
        #expect(spec.restrictionProblem(.string("赞 {likes}"))?.contains("{likes}") == true)
        #expect(spec.restrictionProblem(.string("赞 {count"))?.contains("not a valid message") == true)
    }
}
