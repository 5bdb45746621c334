import SceneryText
import SceneryViewTree

/// A string from a scene file with `$parameter` references in it.
///
/// `"$user"` alone stands for the parameter's value, keeping its type; inside longer text
/// (`"Unfollow $event.name?"`, `"${user}'s blogs"`) references are replaced by their text.
/// `$viewer` is the signed-in user; `$event.field` is a payload field (event rules only);
/// `$$` is a literal dollar sign.
package struct Template: Sendable, Hashable {
    package enum Reference: Sendable, Hashable {
        case viewer
        case parameter(String)
        case eventField(String)
    }

    package enum Segment: Sendable, Hashable {
        case literal(String)
        case reference(Reference, offset: Int)
    }

    package struct SyntaxError: Error, Sendable {
        package var message: String
        package var offset: Int
    }

    package var segments: [Segment]

    /// The reference, when the whole string is exactly one reference.
    package var wholeReference: Reference? {
        if segments.count == 1, case .reference(let reference, _) = segments[0] { return reference }
        return nil
    }

    /// The references with their 0-based UTF-8 offsets in the string.
    package var references: [(reference: Reference, offset: Int)] {
        segments.compactMap { segment in
            if case .reference(let reference, let offset) = segment { return (reference, offset) }
            return nil
        }
    }

    package init(parsing text: String, allowsEventFields: Bool) throws(SyntaxError) {
        var segments: [Segment] = []
        var literal = ""
        let bytes = Array(text.utf8)
        var index = 0
        var literalStart = 0
        func isNameByte(_ byte: UInt8) -> Bool {
            (0x41...0x5A).contains(byte) || (0x61...0x7A).contains(byte) || (0x30...0x39).contains(byte) || byte == UInt8(ascii: "_")
        }
        func flushLiteral(upTo end: Int) {
            if literalStart < end { literal += String(decoding: bytes[literalStart..<end], as: UTF8.self) }
        }
        while index < bytes.count {
            guard bytes[index] == UInt8(ascii: "$"), index + 1 < bytes.count else {
                index += 1
                continue
            }
            let dollar = index
            let next = bytes[index + 1]
            if next == UInt8(ascii: "$") {
                flushLiteral(upTo: dollar)
                literal += "$"
                index += 2
                literalStart = index
                continue
            }
            var nameStart = index + 1
            var nameEnd: Int
            let braced = next == UInt8(ascii: "{")
            if braced {
                nameStart += 1
                guard let close = bytes[nameStart...].firstIndex(of: UInt8(ascii: "}")) else {
                    throw SyntaxError(message: "'${' is not closed; add '}'.", offset: dollar)
                }
                nameEnd = close
            } else {
                guard isNameByte(next), !(0x30...0x39).contains(next) else {
                    index += 1
                    continue
                }
                nameEnd = nameStart
                while nameEnd < bytes.count, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
                // `$event.name`: one dotted field after `event`.
                if String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self) == "event",
                    nameEnd + 1 < bytes.count, bytes[nameEnd] == UInt8(ascii: "."), isNameByte(bytes[nameEnd + 1])
                {
                    nameEnd += 1
                    while nameEnd < bytes.count, isNameByte(bytes[nameEnd]) { nameEnd += 1 }
                }
            }
            let name = String(decoding: bytes[nameStart..<nameEnd], as: UTF8.self)
            let reference: Reference
            if name == "viewer" {
                reference = .viewer
            } else if name.hasPrefix("event.") {
                guard allowsEventFields else {
                    throw SyntaxError(message: "'$\(name)' can only be used in event rules.", offset: dollar)
                }
                let field = String(name.dropFirst("event.".count))
                guard !field.isEmpty, !field.utf8.contains(UInt8(ascii: ".")) else {
                    throw SyntaxError(message: "'$\(name)' must name one payload field, as in $event.name.", offset: dollar)
                }
                reference = .eventField(field)
            } else {
                guard !name.isEmpty, name.utf8.allSatisfy(isNameByte) else {
                    throw SyntaxError(message: "'\(name)' is not a parameter name; use letters, digits and '_'.", offset: dollar)
                }
                reference = .parameter(name)
            }
            flushLiteral(upTo: dollar)
            if !literal.isEmpty { segments.append(.literal(literal)) }
            literal = ""
            segments.append(.reference(reference, offset: dollar))
            index = braced ? nameEnd + 1 : nameEnd
            literalStart = index
        }
        flushLiteral(upTo: bytes.count)
        if !literal.isEmpty { segments.append(.literal(literal)) }
        self.segments = segments
    }

    /// The value: a whole reference keeps its type; anything else becomes text.
    package func resolve(in environment: Condition.Environment) -> JSONValue {
        if let reference = wholeReference { return Self.value(of: reference, in: environment) }
        var text = ""
        for segment in segments {
            switch segment {
            case .literal(let literal): text += literal
            case .reference(let reference, _): text += Self.value(of: reference, in: environment).plainText
            }
        }
        return .string(text)
    }

    private static func value(of reference: Reference, in environment: Condition.Environment) -> JSONValue {
        switch reference {
        case .viewer: environment.viewer.map(JSONValue.string) ?? .null
        case .parameter(let name): environment.arguments[name] ?? .null
        case .eventField(let field): environment.event[field] ?? .null
        }
    }
}

extension JSONValue {
    /// The value with `$` references in every string resolved.
    ///
    /// Strings that fail to parse as templates are kept as written; the validator has
    /// already reported them.
    package func resolvingTemplates(in environment: Condition.Environment, allowsEventFields: Bool) -> JSONValue {
        switch self {
        case .string(let text):
            guard text.utf8.contains(UInt8(ascii: "$")), let template = try? Template(parsing: text, allowsEventFields: allowsEventFields)
            else { return self }
            return template.resolve(in: environment)
        case .array(let values):
            return .array(values.map { $0.resolvingTemplates(in: environment, allowsEventFields: allowsEventFields) })
        case .object(let members):
            return .object(members.mapValues { $0.resolvingTemplates(in: environment, allowsEventFields: allowsEventFields) })
        default:
            return self
        }
    }
}
