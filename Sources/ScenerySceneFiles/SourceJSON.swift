import SceneryText
import SceneryViewTree

/// A JSON document parsed with the source position of every value and key.
///
/// `JSONDecoder` forgets where a value came from; scene-file diagnostics need it.
/// The parser is bounded: it rejects nesting deeper than ``SourceJSON/maximumDepth``,
/// numbers that do not fit, and invalid UTF-8, always with an error instead of a crash.
package struct SourceJSON: Sendable {
    /// One value of the document and where it starts.
    package struct Node: Sendable {
        package var value: Value
        package var location: SourcePosition
    }

    /// One member of an object, in file order, with the location of its key.
    package struct Member: Sendable {
        package var key: String
        package var keyLocation: SourcePosition
        package var value: Node
    }

    package indirect enum Value: Sendable {
        case null
        case bool(Bool)
        case int(Int)
        case double(Double)
        case string(String)
        case array([Node])
        case object([Member])
    }

    package typealias SyntaxError = JSONSyntaxError

    /// Deepest nesting of arrays and objects accepted.
    package static let maximumDepth = 64

    /// Parses `text` into positioned nodes.
    package static func parse(_ text: String) throws(SyntaxError) -> Node {
        try parse(bytes: Array(text.utf8))
    }

    /// Parses the bytes of a file into positioned nodes; invalid UTF-8 is a syntax error.
    package static func parse(bytes: [UInt8]) throws(SyntaxError) -> Node {
        var parser = Parser(bytes: bytes)
        return try parser.parseDocument()
    }
}

extension SourceJSON.Node {
    /// The plain value, positions dropped.
    package var plainValue: JSONValue {
        switch value {
        case .null: .null
        case .bool(let value): .bool(value)
        case .int(let value): .int(value)
        case .double(let value): .double(value)
        case .string(let value): .string(value)
        case .array(let nodes): .array(nodes.map(\.plainValue))
        case .object(let members):
            .object(Dictionary(members.map { ($0.key, $0.value.plainValue) }, uniquingKeysWith: { first, _ in first }))
        }
    }

    /// The kind of the value, as diagnostics say it.
    package var kindDescription: String {
        switch value {
        case .array: "an array"
        case .object: "an object"
        default: plainValue.kindDescription  // scalars convert cheaply
        }
    }
}

private struct Parser {
    package let bytes: [UInt8]
    package var index = 0
    package var line = 1
    package var lineStart = 0
    package var depth = 0

    package init(bytes: [UInt8]) {
        self.bytes = bytes
        // Skip a UTF-8 byte order mark.
        if bytes.starts(with: [0xEF, 0xBB, 0xBF]) {
            index = 3
            lineStart = 3
        }
    }

    package var location: SourcePosition { SourcePosition(line: line, column: index - lineStart + 1) }

    package func fail(_ message: String, at location: SourcePosition? = nil) -> SourceJSON.SyntaxError {
        SourceJSON.SyntaxError(message: message, location: location ?? self.location)
    }

    package mutating func parseDocument() throws(SourceJSON.SyntaxError) -> SourceJSON.Node {
        skipWhitespace()
        if index >= bytes.count { throw fail("The file is empty; a scene file must contain a JSON object.") }
        let node = try parseValue()
        skipWhitespace()
        if index < bytes.count {
            throw fail("Unexpected \(describeCurrent()) after the end of the JSON document; remove it.")
        }
        return node
    }

    package mutating func skipWhitespace() {
        while index < bytes.count {
            switch bytes[index] {
            case 0x20, 0x09, 0x0D: index += 1
            case 0x0A:
                index += 1
                line += 1
                lineStart = index
            default: return
            }
        }
    }

    package func describeCurrent() -> String {
        guard index < bytes.count else { return "end of file" }
        let byte = bytes[index]
        if byte >= 0x21 && byte < 0x7F { return "'\(Character(Unicode.Scalar(byte)))'" }
        return "byte 0x\(String(byte, radix: 16, uppercase: true))"
    }

    package mutating func parseValue() throws(SourceJSON.SyntaxError) -> SourceJSON.Node {
        let start = location
        guard index < bytes.count else { throw fail("Unexpected end of file; a value was expected.") }
        switch bytes[index] {
        case UInt8(ascii: "{"): return SourceJSON.Node(value: try parseObject(), location: start)
        case UInt8(ascii: "["): return SourceJSON.Node(value: try parseArray(), location: start)
        case UInt8(ascii: "\""): return SourceJSON.Node(value: .string(try parseString()), location: start)
        case UInt8(ascii: "t"):
            try expectWord("true")
            return SourceJSON.Node(value: .bool(true), location: start)
        case UInt8(ascii: "f"):
            try expectWord("false")
            return SourceJSON.Node(value: .bool(false), location: start)
        case UInt8(ascii: "n"):
            try expectWord("null")
            return SourceJSON.Node(value: .null, location: start)
        case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
            return SourceJSON.Node(value: try parseNumber(), location: start)
        case UInt8(ascii: "'"):
            throw fail("Strings must use double quotes (\"), not single quotes.")
        case UInt8(ascii: "}"), UInt8(ascii: "]"):
            throw fail("Unexpected \(describeCurrent()); a value was expected. Remove the trailing comma before it, if any.")
        default:
            throw fail("Unexpected \(describeCurrent()); a value (object, array, string, number, true, false or null) was expected.")
        }
    }

    package mutating func expectWord(_ word: String) throws(SourceJSON.SyntaxError) {
        let start = location
        for byte in word.utf8 {
            guard index < bytes.count, bytes[index] == byte else {
                throw fail("Unknown literal; did you mean '\(word)'? JSON literals are true, false and null.", at: start)
            }
            index += 1
        }
    }

    package mutating func enterContainer() throws(SourceJSON.SyntaxError) {
        depth += 1
        if depth > SourceJSON.maximumDepth {
            throw fail("Nesting is deeper than \(SourceJSON.maximumDepth) levels; flatten the structure.")
        }
    }

    package mutating func parseObject() throws(SourceJSON.SyntaxError) -> SourceJSON.Value {
        try enterContainer()
        defer { depth -= 1 }
        index += 1  // {
        var members: [SourceJSON.Member] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "}") {
            index += 1
            return .object(members)
        }
        while true {
            skipWhitespace()
            let keyLocation = location
            guard index < bytes.count else { throw fail("Unexpected end of file inside an object; add the missing '}'.") }
            guard bytes[index] == UInt8(ascii: "\"") else {
                if bytes[index] == UInt8(ascii: "}") {
                    throw fail("Trailing comma before '}'; remove the comma.")
                }
                throw fail("Expected a key in double quotes, found \(describeCurrent()).")
            }
            let key = try parseString()
            skipWhitespace()
            guard index < bytes.count, bytes[index] == UInt8(ascii: ":") else {
                throw fail("Expected ':' after the key \"\(key)\", found \(describeCurrent()).")
            }
            index += 1
            skipWhitespace()
            let value = try parseValue()
            members.append(SourceJSON.Member(key: key, keyLocation: keyLocation, value: value))
            skipWhitespace()
            guard index < bytes.count else { throw fail("Unexpected end of file inside an object; add the missing '}'.") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "}") {
                index += 1
                return .object(members)
            }
            throw fail("Expected ',' or '}' after the value of \"\(key)\", found \(describeCurrent()).")
        }
    }

    package mutating func parseArray() throws(SourceJSON.SyntaxError) -> SourceJSON.Value {
        try enterContainer()
        defer { depth -= 1 }
        index += 1  // [
        var elements: [SourceJSON.Node] = []
        skipWhitespace()
        if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
            index += 1
            return .array(elements)
        }
        while true {
            skipWhitespace()
            if index < bytes.count, bytes[index] == UInt8(ascii: "]") {
                throw fail("Trailing comma before ']'; remove the comma.")
            }
            elements.append(try parseValue())
            skipWhitespace()
            guard index < bytes.count else { throw fail("Unexpected end of file inside an array; add the missing ']'.") }
            if bytes[index] == UInt8(ascii: ",") {
                index += 1
                continue
            }
            if bytes[index] == UInt8(ascii: "]") {
                index += 1
                return .array(elements)
            }
            throw fail("Expected ',' or ']' in the array, found \(describeCurrent()).")
        }
    }

    /// A string: one validated copy of its bytes when it has no escape (most strings),
    /// else its runs and decoded escapes gathered first, then validated once.
    package mutating func parseString() throws(SourceJSON.SyntaxError) -> String {
        let start = location
        index += 1  // opening quote
        var runStart = index
        var gathered: [UInt8]?  // only once an escape is seen
        while true {
            guard index < bytes.count else { throw fail("Unterminated string; add the closing '\"'.", at: start) }
            let byte = bytes[index]
            switch byte {
            case UInt8(ascii: "\""):
                let end = index
                index += 1
                let text: String?
                if var buffer = gathered {
                    buffer.append(contentsOf: bytes[runStart..<end])
                    text = buffer.withUnsafeBufferPointer { String(validating: $0, as: UTF8.self) }
                } else {
                    text = bytes.withUnsafeBufferPointer { all in
                        let run = UnsafeBufferPointer(rebasing: all[runStart..<end])
                        // ASCII (most strings) needs no validation.
                        return run.allSatisfy { $0 < 0x80 } ? String(decoding: run, as: UTF8.self) : String(validating: run, as: UTF8.self)
                    }
                }
                // A decoded escape never starts with a continuation byte, so the joined bytes
                // are valid exactly when every raw run is.
                guard let text else { throw fail("The string contains invalid UTF-8; save the file as UTF-8.", at: start) }
                return text
            case UInt8(ascii: "\\"):
                var buffer = gathered ?? []
                gathered = nil
                buffer.append(contentsOf: bytes[runStart..<index])
                index += 1
                UTF8.encode(try parseEscape()) { buffer.append($0) }
                gathered = buffer
                runStart = index
            case 0x00..<0x20:
                throw fail("Control character (U+\(String(format: byte)) ) inside a string; escape it (for example \\n) or remove it.")
            default:
                index += 1
            }
        }
    }

    package mutating func parseEscape() throws(SourceJSON.SyntaxError) -> Unicode.Scalar {
        guard index < bytes.count else { throw fail("Unterminated escape sequence at the end of the file.") }
        let byte = bytes[index]
        index += 1
        switch byte {
        case UInt8(ascii: "\""): return "\""
        case UInt8(ascii: "\\"): return "\\"
        case UInt8(ascii: "/"): return "/"
        case UInt8(ascii: "b"): return "\u{08}"
        case UInt8(ascii: "f"): return "\u{0C}"
        case UInt8(ascii: "n"): return "\n"
        case UInt8(ascii: "r"): return "\r"
        case UInt8(ascii: "t"): return "\t"
        case UInt8(ascii: "u"):
            let high = try parseHex4()
            if (0xD800...0xDBFF).contains(high) {
                guard index + 1 < bytes.count, bytes[index] == UInt8(ascii: "\\"), bytes[index + 1] == UInt8(ascii: "u")
                else { return "\u{FFFD}" }
                index += 2
                let low = try parseHex4()
                guard (0xDC00...0xDFFF).contains(low) else { return "\u{FFFD}" }
                let combined = 0x10000 + ((high - 0xD800) << 10) + (low - 0xDC00)
                return Unicode.Scalar(combined) ?? "\u{FFFD}"
            }
            return Unicode.Scalar(high) ?? "\u{FFFD}"
        default:
            index -= 1
            throw fail("Invalid escape sequence '\\\(describeCurrent())'; valid escapes are \\\" \\\\ \\/ \\b \\f \\n \\r \\t \\uXXXX.")
        }
    }

    package mutating func parseHex4() throws(SourceJSON.SyntaxError) -> UInt32 {
        var value: UInt32 = 0
        for _ in 0..<4 {
            guard index < bytes.count else { throw fail("Incomplete \\u escape; it needs four hex digits.") }
            let byte = bytes[index]
            let digit: UInt32
            switch byte {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): digit = UInt32(byte - UInt8(ascii: "0"))
            case UInt8(ascii: "a")...UInt8(ascii: "f"): digit = UInt32(byte - UInt8(ascii: "a") + 10)
            case UInt8(ascii: "A")...UInt8(ascii: "F"): digit = UInt32(byte - UInt8(ascii: "A") + 10)
            default: throw fail("Invalid \\u escape; it needs four hex digits.")
            }
            value = value * 16 + digit
            index += 1
        }
        return value
    }

    package mutating func parseNumber() throws(SourceJSON.SyntaxError) -> SourceJSON.Value {
        let start = index
        let startLocation = location
        var isInteger = true
        if bytes[index] == UInt8(ascii: "-") { index += 1 }
        func digits(_ parser: inout Parser) -> Int {
            let from = parser.index
            while parser.index < parser.bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(parser.bytes[parser.index]) {
                parser.index += 1
            }
            return parser.index - from
        }
        let integerDigits = digits(&self)
        guard integerDigits > 0 else { throw fail("Invalid number; a digit must follow '-'.", at: startLocation) }
        if integerDigits > 1, bytes[start + (bytes[start] == UInt8(ascii: "-") ? 1 : 0)] == UInt8(ascii: "0") {
            throw fail("Numbers must not have leading zeros.", at: startLocation)
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: ".") {
            isInteger = false
            index += 1
            guard digits(&self) > 0 else { throw fail("Invalid number; a digit must follow '.'.", at: startLocation) }
        }
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isInteger = false
            index += 1
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") { index += 1 }
            guard digits(&self) > 0 else { throw fail("Invalid number; a digit must follow the exponent.", at: startLocation) }
        }
        let text = String(decoding: bytes[start..<index], as: UTF8.self)
        if isInteger, let value = Int(text) { return .int(value) }
        guard let value = Double(text), value.isFinite else {
            throw fail("The number \(text.prefix(40)) is too large to represent.", at: startLocation)
        }
        return .double(value)
    }
}

extension String {
    fileprivate init(format byte: UInt8) {
        let hex = String(byte, radix: 16, uppercase: true)
        self = String(repeating: "0", count: 4 - hex.count) + hex
    }
}
