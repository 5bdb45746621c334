/// A JSON syntax error: what is wrong and where.
package struct JSONSyntaxError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    package var message: String
    /// Where the problem is.
    package var location: SourcePosition

    package var description: String { "\(location): \(message)" }
}

/// Finds where values are in a JSON document, for tools that report problems as
/// `file:line:column` — the positioned parser scene files use, for any JSON.
///
/// ```swift
/// let locator = try JSONLocator(bytes: Array(data))
/// locator.location(of: "blogs[3].author")   // 42:17
/// ```
package struct JSONLocator: Sendable {
    private let root: SourceJSON.Node

    /// Parses a document.
    /// - Throws: ``JSONSyntaxError`` with the place of the first syntax error.
    package init(bytes: [UInt8]) throws(JSONSyntaxError) {
        root = try SourceJSON.parse(bytes: bytes)
    }

    /// The location of the value at a path such as `users[2].name` (`""` is the whole
    /// document), or of the deepest part of the path that exists.
    package func location(of path: String) -> SourcePosition {
        var node = root
        for component in Self.components(of: path) {
            switch (component, node.value) {
            case (.key(let key), .object(let members)):
                guard let member = members.first(where: { $0.key == key }) else { return node.location }
                node = member.value
            case (.index(let index), .array(let elements)):
                guard elements.indices.contains(index) else { return node.location }
                node = elements[index]
            default:
                return node.location
            }
        }
        return node.location
    }

    /// The numbers that are not whole numbers within `Int`'s range (`1.5`, `1e3`,
    /// `99999999999999999999`), in document order, with their paths (as ``location(of:)``
    /// takes them) and locations. Lets a tool whose decoder rejects such a number without
    /// saying where point at it.
    package var numbersOutsideIntegers: [(path: String, location: SourcePosition)] {
        var found: [(path: String, location: SourcePosition)] = []
        var stack: [(node: SourceJSON.Node, path: String)] = [(root, "")]
        while let (node, path) = stack.popLast() {
            switch node.value {
            case .double: found.append((path, node.location))
            case .object(let members):
                for member in members.reversed() { stack.append((member.value, path.isEmpty ? member.key : "\(path).\(member.key)")) }
            case .array(let elements):
                for (index, element) in elements.enumerated().reversed() { stack.append((element, "\(path)[\(index)]")) }
            default: break
            }
        }
        return found
    }

    private enum Component {
        case key(String)
        case index(Int)
    }

    private static func components(of path: String) -> [Component] {
        var components: [Component] = []
        var current = ""
        var index = path.startIndex
        func flush() {
            if !current.isEmpty { components.append(.key(current)) }
            current = ""
        }
        while index < path.endIndex {
            let character = path[index]
            if character == "." {
                flush()
            } else if character == "[", let close = path[index...].firstIndex(of: "]"), let number = Int(path[path.index(after: index)..<close]) {
                flush()
                components.append(.index(number))
                index = close
            } else {
                current.append(character)
            }
            index = path.index(after: index)
        }
        flush()
        return components
    }
}
