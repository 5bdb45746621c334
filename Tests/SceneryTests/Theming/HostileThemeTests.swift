import Testing

@testable import Scenery

/// Theme files an attacker (or a generator gone wrong) writes: long alias chains, long
/// cycles, thousands of aliases to nothing, too many tokens. Each is read in time linear in
/// the file and refused with a message that says which limit was hit.
@Suite struct HostileThemeTests {
    /// A theme whose surface colour is reached through `length` aliases (`chain.t<length>` →
    /// … → `chain.t0`, a value), beside `extra` groups of the caller's.
    static func chainedTheme(length: Int, extra: String = "") -> String {
        var chain = [##""t0": { "$value": "#ffffff" }"##]
        for index in 1...max(length, 1) { chain.append("\"t\(index)\": { \"$value\": \"{chain.t\(index - 1)}\" }") }
        let file = ThemeTests.themeFile([.surface: "\"{chain.t\(length)}\""])
        return file.replacingOccurrences(
            of: #""palette": {"#, with: "\"chain\": { \"$type\": \"color\", \(chain.joined(separator: ", ")) },\(extra)\n  \"palette\": {")
    }

    /// A group of `count` tokens of `type` beside the chain, for ``chainedTheme(length:extra:)``:
    /// token `index` is `"<prefix><index>"` with the `$value` JSON `value(index)` gives.
    static func group(_ name: String, type: String, prefix: String, count: Int, value: (Int) -> String) -> String {
        let tokens = (0..<count).map { "\"\(prefix)\($0)\": { \"$value\": \(value($0)) }" }
        return "\n  \"\(name)\": { \"$type\": \"\(type)\", \(tokens.joined(separator: ", ")) },"
    }

    static func problems(reading source: String) -> [Diagnostic] {
        var registry = SceneRegistry()
        return registry.addTheme(source: source, file: "Scenes/hostile.tokens.json")
    }

    @Test func aChainAsLongAsTheLimitIsRead() {
        // `color.surface` → `chain.t31` → … → `chain.t0`: 32 aliases, the most allowed.
        let length = 31
        var registry = SceneRegistry()
        let problems = registry.addTheme(source: Self.chainedTheme(length: length), file: "Scenes/deep.tokens.json")
        #expect(problems.isEmpty, "\(problems)")
        #expect(registry.theme(named: "deep")?.colors[.surface]?.hex.prefix(7) == "#ffffff")
    }

    @Test func aThreeThousandAliasChainIsRefusedOnceAtTheDepthLimit() {
        let problems = Self.problems(reading: Self.chainedTheme(length: 3000))
        let deep = problems.filter { $0.message.contains("more than 32 aliases follow one another") }
        // One report for the whole chain: at the first token past the limit.
        #expect(deep.count == 1, "\(problems.prefix(5))")
        #expect(deep.first?.message.contains("From 'chain.t33'") == true, "\(deep)")
        #expect(problems.count <= 3, "\(problems.count) problems: \(problems.prefix(5))")
    }

    @Test func aTwoThousandAliasCycleIsReportedOnceAndBriefly() {
        let loop = Self.group("loop", type: "color", prefix: "c", count: 2000) { "\"{loop.c\(($0 + 1) % 2000)}\"" }
        let source = Self.chainedTheme(length: 1, extra: loop)
        let problems = Self.problems(reading: source)
        let cycles = problems.filter { $0.message.contains("cycle") }
        #expect(cycles.count == 1, "\(problems.prefix(5))")
        let message = cycles.first?.message ?? ""
        #expect(message.contains("loop.c0 → loop.c1 → "), "\(message)")
        #expect(message.contains("(2000 tokens)"), "\(message)")
        #expect(message.utf8.count < 400, "a long cycle is named by its first tokens: \(message.utf8.count) bytes")
    }

    @Test func thousandsOfAliasesToNothingSuggestForTheFirstFewOnly() {
        let missing = Self.group("missing", type: "color", prefix: "m", count: 2000) { "\"{chain.t\($0 + 5)x}\"" }
        let source = Self.chainedTheme(length: 4, extra: missing)
        let problems = Self.problems(reading: source)
        let unnamed = problems.filter { $0.message.contains("names no token") }
        #expect(unnamed.count == 2000, "each alias to nothing is reported at its own place")
        #expect(unnamed.filter { $0.message.contains("did you mean") }.count == 3, "a did-you-mean for the first three only")
        #expect(unnamed.allSatisfy { !$0.message.contains("chain.t0, chain.t1") }, "no message lists every token")
    }

    @Test func moreTokensThanTheLimitAreRefusedSayingSo() {
        let many = Self.group("many", type: "dimension", prefix: "n", count: 10_000 + 5) { "{ \"value\": \($0 % 100), \"unit\": \"px\" }" }
        let source = Self.chainedTheme(length: 1, extra: many)
        var registry = SceneRegistry()
        let problems = registry.addTheme(source: source, file: "Scenes/many.tokens.json")
        let limit = problems.filter { $0.message.contains("more than 10000 tokens (the limit)") }
        #expect(limit.count == 1, "\(problems.prefix(5))")
        #expect(registry.theme(named: "many") == nil, "a theme cut short is not used")
    }
}
