import SceneryText
import SceneryViewTree

extension Condition {
    /// A syntax error in a condition, with the 0-based offset (in UTF-8 bytes) of the problem.
    package struct SyntaxError: Error, Sendable, Hashable {
        package var message: String
        package var offset: Int
    }

    /// Parses a condition.
    ///
    /// - Parameters:
    ///   - source: The condition's text, as a scene file writes it (`viewer == user`).
    ///   - allowsEventFields: Whether `event.x` operands are allowed (in event rules).
    /// - Throws: ``SyntaxError`` naming the problem and its offset.
    package init(parsing source: String, allowsEventFields: Bool = false) throws(SyntaxError) {
        var parser = ConditionParser(tokens: try ConditionLexer.tokens(of: source), allowsEventFields: allowsEventFields)
        let expression = try parser.parseOr()
        if let token = parser.peek {
            throw SyntaxError(message: "Unexpected '\(token.text)'; join conditions with && or ||.", offset: token.offset)
        }
        self.source = source
        self.expression = expression
    }
}

private struct ConditionToken {
    package enum Kind: Equatable { case identifier, string, number, equal, notEqual, and, or, not, open, close }
    package var kind: Kind
    package var text: String
    package var offset: Int
}

private enum ConditionLexer {
    package static func tokens(of source: String) throws(Condition.SyntaxError) -> [ConditionToken] {
        let bytes = Array(source.utf8)
        var tokens: [ConditionToken] = []
        var index = 0
        func isIdentifierByte(_ byte: UInt8) -> Bool {
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte)
                || byte == UInt8(ascii: "_") || byte == UInt8(ascii: ".")
        }
        while index < bytes.count {
            let byte = bytes[index]
            let start = index
            let next: UInt8? = index + 1 < bytes.count ? bytes[index + 1] : nil
            switch byte {
            case 0x20, 0x09, 0x0A, 0x0D:
                index += 1
            case UInt8(ascii: "="):
                guard next == UInt8(ascii: "=") else {
                    throw Condition.SyntaxError(message: "Use '==' to compare, not '='.", offset: start)
                }
                tokens.append(ConditionToken(kind: .equal, text: "==", offset: start))
                index += 2
            case UInt8(ascii: "!"):
                if next == UInt8(ascii: "=") {
                    tokens.append(ConditionToken(kind: .notEqual, text: "!=", offset: start))
                    index += 2
                } else {
                    tokens.append(ConditionToken(kind: .not, text: "!", offset: start))
                    index += 1
                }
            case UInt8(ascii: "&"), UInt8(ascii: "|"):
                guard next == byte else {
                    let op = byte == UInt8(ascii: "&") ? "&&" : "||"
                    throw Condition.SyntaxError(message: "Use '\(op)', not a single '\(Character(Unicode.Scalar(byte)))'.", offset: start)
                }
                tokens.append(ConditionToken(kind: byte == UInt8(ascii: "&") ? .and : .or, text: byte == UInt8(ascii: "&") ? "&&" : "||", offset: start))
                index += 2
            case UInt8(ascii: "("):
                tokens.append(ConditionToken(kind: .open, text: "(", offset: start))
                index += 1
            case UInt8(ascii: ")"):
                tokens.append(ConditionToken(kind: .close, text: ")", offset: start))
                index += 1
            case UInt8(ascii: "\""), UInt8(ascii: "'"):
                index += 1
                while index < bytes.count, bytes[index] != byte { index += 1 }
                guard index < bytes.count else {
                    throw Condition.SyntaxError(message: "Unterminated string; close it with \(Character(Unicode.Scalar(byte))).", offset: start)
                }
                tokens.append(ConditionToken(kind: .string, text: String(decoding: bytes[(start + 1)..<index], as: UTF8.self), offset: start))
                index += 1
            case UInt8(ascii: "-"), UInt8(ascii: "0")...UInt8(ascii: "9"):
                index += 1
                while index < bytes.count, (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(bytes[index]) || bytes[index] == UInt8(ascii: ".") {
                    index += 1
                }
                tokens.append(ConditionToken(kind: .number, text: String(decoding: bytes[start..<index], as: UTF8.self), offset: start))
            default:
                guard isIdentifierByte(byte) else {
                    let character = String(decoding: bytes[start...].prefix(4), as: UTF8.self).prefix(1)
                    throw Condition.SyntaxError(message: "Unexpected character '\(character)' in the condition.", offset: start)
                }
                while index < bytes.count, isIdentifierByte(bytes[index]) { index += 1 }
                tokens.append(ConditionToken(kind: .identifier, text: String(decoding: bytes[start..<index], as: UTF8.self), offset: start))
            }
        }
        return tokens
    }
}

private struct ConditionParser {
    package let tokens: [ConditionToken]
    package let allowsEventFields: Bool
    package var position = 0
    package var depth = 0

    package init(tokens: [ConditionToken], allowsEventFields: Bool) {
        self.tokens = tokens
        self.allowsEventFields = allowsEventFields
    }

    package var peek: ConditionToken? { position < tokens.count ? tokens[position] : nil }
    package var endOffset: Int { tokens.last.map { $0.offset + $0.text.utf8.count } ?? 0 }

    /// `a || b || …` as one node (a loop, not a recursion per operand).
    package mutating func parseOr() throws(Condition.SyntaxError) -> Condition.Expression {
        var operands = [try parseAnd()]
        while peek?.kind == .or {
            position += 1
            operands.append(try parseAnd())
        }
        return operands.count == 1 ? operands[0] : .any(operands)
    }

    /// `a && b && …` as one node.
    package mutating func parseAnd() throws(Condition.SyntaxError) -> Condition.Expression {
        var operands = [try parseUnary()]
        while peek?.kind == .and {
            position += 1
            operands.append(try parseUnary())
        }
        return operands.count == 1 ? operands[0] : .all(operands)
    }

    package mutating func parseUnary() throws(Condition.SyntaxError) -> Condition.Expression {
        depth += 1
        defer { depth -= 1 }
        guard depth <= 32 else {
            throw Condition.SyntaxError(message: "The condition nests too deeply; simplify it.", offset: peek?.offset ?? endOffset)
        }
        guard let token = peek else {
            throw Condition.SyntaxError(message: "The condition ends too early; an operand was expected.", offset: endOffset)
        }
        switch token.kind {
        case .not:
            position += 1
            return .not(try parseUnary())
        case .open:
            position += 1
            let inner = try parseOr()
            guard peek?.kind == .close else {
                throw Condition.SyntaxError(message: "Missing ')' to close the '(' at offset \(token.offset).", offset: peek?.offset ?? endOffset)
            }
            position += 1
            return inner
        default:
            let lhs = try parseOperand()
            guard let op = peek, op.kind == .equal || op.kind == .notEqual else { return .truthy(lhs) }
            position += 1
            return .compare(lhs, isEqual: op.kind == .equal, try parseOperand())
        }
    }

    package mutating func parseOperand() throws(Condition.SyntaxError) -> Condition.Operand {
        guard let token = peek else {
            throw Condition.SyntaxError(message: "The condition ends too early; an operand was expected.", offset: endOffset)
        }
        position += 1
        switch token.kind {
        case .string: return .literal(.string(token.text))
        case .number:
            if let int = Int(token.text) { return .literal(.int(int)) }
            if let double = Double(token.text), double.isFinite { return .literal(.double(double)) }
            throw Condition.SyntaxError(message: "'\(token.text)' is not a number.", offset: token.offset)
        case .identifier:
            switch token.text {
            case "true": return .literal(.bool(true))
            case "false": return .literal(.bool(false))
            case "null": return .literal(.null)
            case "viewer": return .viewer
            default:
                if token.text.hasPrefix("event.") {
                    guard allowsEventFields else {
                        throw Condition.SyntaxError(message: "'\(token.text)' can only be used in event rules.", offset: token.offset)
                    }
                    let field = String(token.text.dropFirst("event.".count))
                    guard !field.isEmpty, !field.utf8.contains(UInt8(ascii: ".")) else {
                        throw Condition.SyntaxError(message: "'\(token.text)' must name one payload field, as in event.blog.", offset: token.offset)
                    }
                    return .eventField(field)
                }
                guard !token.text.utf8.contains(UInt8(ascii: ".")), let first = token.text.first, !first.isNumber else {
                    throw Condition.SyntaxError(message: "'\(token.text)' is not a parameter name.", offset: token.offset)
                }
                return .parameter(token.text)
            }
        default:
            throw Condition.SyntaxError(message: "Unexpected '\(token.text)'; an operand (viewer, a parameter, a literal) was expected.", offset: token.offset)
        }
    }
}
