import SceneryText
import SceneryViewTree

/// The parser's building blocks: typed values read from the located JSON, each mistake
/// recorded as a diagnostic with its line and path.
extension SceneFileParser {
    package mutating func error(_ message: String, at location: SourcePosition?, path: String) {
        diagnostics.append(Diagnostic(.error, message, file: file, location: location, path: path))
    }

    /// The members of an object by key, reporting unknown and duplicate keys.
    package mutating func object(
        _ members: [SourceJSON.Member], path: String, allowed: [String]
    ) -> [String: SourceJSON.Node] {
        var fields: [String: SourceJSON.Node] = [:]
        for member in members {
            let memberPath = join(path, member.key)
            if fields[member.key] != nil {
                error("The key \"\(member.key)\" appears twice; keep one.", at: member.keyLocation, path: memberPath)
                continue
            }
            guard allowed.contains(member.key) else {
                let hint = Suggestion.hint(for: member.key, in: allowed.filter { $0 != "$schema" }, listing: "allowed keys")
                let place = path.isEmpty ? "a scene file" : "'\(path)'"
                error("Unknown key \"\(member.key)\" in \(place)\(hint).", at: member.keyLocation, path: memberPath)
                continue
            }
            sourceMap[memberPath] = member.value.location
            fields[member.key] = member.value
        }
        return fields
    }

    package func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    package mutating func typeError(_ node: SourceJSON.Node, path: String, expected: String) {
        error("'\(path)' must be \(expected), not \(node.kindDescription).", at: node.location, path: path)
    }

    /// Whether text has the shape of a BCP 47 tag: subtags of 1–8 letters or digits joined by
    /// hyphens, the first of 2–8 letters.
    package static func isLanguageTag(_ text: String) -> Bool {
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return subtags.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    package mutating func string(_ node: SourceJSON.Node, path: String) -> String? {
        guard case .string(let text) = node.value else {
            typeError(node, path: path, expected: "a string")
            return nil
        }
        return text
    }

    package mutating func bool(_ node: SourceJSON.Node, path: String) -> Bool? {
        guard case .bool(let value) = node.value else {
            typeError(node, path: path, expected: "true or false")
            return nil
        }
        return value
    }

    package mutating func objectMembers(_ node: SourceJSON.Node, path: String) -> [SourceJSON.Member]? {
        guard case .object(let members) = node.value else {
            typeError(node, path: path, expected: "an object")
            return nil
        }
        return members
    }

    package mutating func array(_ node: SourceJSON.Node, path: String) -> [SourceJSON.Node]? {
        guard case .array(let elements) = node.value else {
            typeError(node, path: path, expected: "an array")
            return nil
        }
        for (index, element) in elements.enumerated() { sourceMap["\(path)[\(index)]"] = element.location }
        return elements
    }

    package mutating func condition(_ node: SourceJSON.Node, path: String, allowsEventFields: Bool) -> Condition? {
        guard let text = string(node, path: path) else { return nil }
        do {
            return try Condition(parsing: text, allowsEventFields: allowsEventFields)
        } catch {
            self.error("Invalid condition: \(error.message)", at: offset(node.location, by: error.offset), path: path)
            return nil
        }
    }

    /// The location of a byte offset inside a string literal that starts at `location`.
    /// Exact when the string has no escapes before the offset.
    package func offset(_ location: SourcePosition, by offset: Int) -> SourcePosition {
        SourcePosition(line: location.line, column: location.column + 1 + offset)
    }

    /// Reports template syntax errors in every string of a value.
    package mutating func checkTemplates(_ node: SourceJSON.Node, path: String, allowsEventFields: Bool) {
        switch node.value {
        case .string(let text) where text.utf8.contains(UInt8(ascii: "$")):
            do {
                _ = try Template(parsing: text, allowsEventFields: allowsEventFields)
            } catch {
                self.error("Invalid reference: \(error.message)", at: offset(node.location, by: error.offset), path: path)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                checkTemplates(element, path: "\(path)[\(index)]", allowsEventFields: allowsEventFields)
            }
        case .object(let members):
            for member in members {
                sourceMap[join(path, member.key)] = member.value.location
                checkTemplates(member.value, path: join(path, member.key), allowsEventFields: allowsEventFields)
            }
        default: break
        }
    }
}
