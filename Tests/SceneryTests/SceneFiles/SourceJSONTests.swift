import Testing

@testable import Scenery

@Suite struct SourceJSONTests {
    @Test func recordsTheLineAndColumnOfEveryValue() throws {
        let node = try SourceJSON.parse("{\n  \"a\": [1, \"x\"],\n  \"b\": {\"c\": null}\n}")
        guard case .object(let members) = node.value else {
            Issue.record("not an object")
            return
        }
        #expect(members.map(\.key) == ["a", "b"])
        #expect(members[0].keyLocation == SourcePosition(line: 2, column: 3))
        #expect(members[0].value.location == SourcePosition(line: 2, column: 8))
        guard case .array(let elements) = members[0].value.value else {
            Issue.record("not an array")
            return
        }
        #expect(elements[1].location == SourcePosition(line: 2, column: 12))
        #expect(members[1].value.location == SourcePosition(line: 3, column: 8))
    }

    @Test func decodesEscapesAndUnicode() throws {
        let node = try SourceJSON.parse(#"["a\"b\\c\n", "\u00e9\ud83d\ude00", "草稿"]"#)
        #expect(node.plainValue == ["a\"b\\c\n", "é😀", "草稿"])
    }

    @Test func keepsIntegersAndDoublesApart() throws {
        #expect(try SourceJSON.parse("[1, -2, 1.5, 1e3]").plainValue == [1, -2, 1.5, 1000.0])
    }

    @Test(arguments: [
        ("", 1, 1, "The file is empty"),
        ("{\"a\": 1,}", 1, 9, "Trailing comma before '}'"),
        ("[1, 2,]", 1, 7, "Trailing comma before ']'"),
        ("{\"a\" 1}", 1, 6, "Expected ':' after the key \"a\""),
        ("{\n  \"a\": tru\n}", 2, 8, "Unknown literal; did you mean 'true'?"),
        ("{\"a\": \"unterminated}", 1, 7, "Unterminated string"),
        ("{'a': 1}", 1, 2, "Expected a key in double quotes"),
        ("[01]", 1, 2, "Numbers must not have leading zeros"),
        ("[1e999]", 1, 2, "is too large to represent"),
        ("{} {}", 1, 4, "after the end of the JSON document"),
        ("[\"a\tb\"]", 1, 4, "Control character"),
        ("[\"\\x\"]", 1, 4, "Invalid escape sequence"),
    ])
    func reportsSyntaxErrorsWithTheirPlace(text: String, line: Int, column: Int, message: String) {
        #expect {
            try SourceJSON.parse(text)
        } throws: { error in
            guard let error = error as? SourceJSON.SyntaxError else { return false }
            #expect(error.location == SourcePosition(line: line, column: column), "\(error.message)")
            #expect(error.message.contains(message), "\(error.message)")
            return true
        }
    }

    @Test func rejectsNestingBeyondTheLimitWithoutCrashing() {
        let deep = String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000)
        #expect(throws: SourceJSON.SyntaxError.self) { try SourceJSON.parse(deep) }
        let allowed = String(repeating: "[", count: SourceJSON.maximumDepth) + String(repeating: "]", count: SourceJSON.maximumDepth)
        #expect(throws: Never.self) { try SourceJSON.parse(allowed) }
    }

    @Test func rejectsInvalidUTF8WithItsPlace() {
        let inString: [UInt8] = Array("{\n  \"a\": \"".utf8) + [0xFF] + Array("\"}".utf8)
        #expect {
            try SourceJSON.parse(bytes: inString)
        } throws: { error in
            let error = error as? SourceJSON.SyntaxError
            return error?.location == SourcePosition(line: 2, column: 8) && error?.message.contains("invalid UTF-8") == true
        }
        let outside: [UInt8] = [0x5B, 0xC3, 0x5D]
        #expect(throws: SourceJSON.SyntaxError.self) { try SourceJSON.parse(bytes: outside) }
    }
}
