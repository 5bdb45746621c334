extension Theme {
    /// Reads a theme file (DTCG format), collecting every problem with its position.
    /// Returns `nil` (with the problems) when the file gives no usable theme.
    ///
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - file: The file as diagnostics name it; its name gives the theme's name.
    static func read(bytes: [UInt8], file: String) -> (Theme?, [Diagnostic]) {
        var reader = ThemeReader(file: file)
        let theme = reader.read(bytes)
        return (theme, reader.diagnostics)
    }
}

/// Reads a DTCG token file into a ``Theme``: groups, tokens, inherited `$type`, aliases.
private struct ThemeReader {
    let file: String
    var diagnostics: [Diagnostic] = []

    /// A token as written: its type (own or inherited), value node, and where.
    struct Token {
        var type: String?
        var value: SourceJSON.Node
        var location: SourcePosition
    }

    /// Every token by path (`color.surface`), in file order of first sight.
    var tokens: [String: Token] = [:]

    init(file: String) { self.file = file }

    /// The types of the DTCG format; values of the ones a theme does not use are only checked
    /// for their shape's kind.
    static let knownTypes: Set<String> = [
        "color", "dimension", "fontFamily", "fontWeight", "duration", "cubicBezier", "number",
        "strokeStyle", "border", "transition", "shadow", "gradient", "typography",
    ]

    mutating func error(_ message: String, at location: SourcePosition?, path: String) {
        let diagnostic = Diagnostic(.error, message, file: file, location: location, path: path)
        // A cycle is met from each of its tokens; it is reported once.
        if !diagnostics.contains(where: { $0.message == message }) { diagnostics.append(diagnostic) }
    }

    mutating func read(_ bytes: [UInt8]) -> Theme? {
        let name = Theme.name(ofFileNamed: file)
        guard !name.isEmpty, name.utf8.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }) else {
            error(
                "A theme file is named <name>.tokens.json with a name of lowercase letters, digits and hyphens (such as dark.tokens.json); rename it.",
                at: nil, path: "")
            return nil
        }
        let root: SourceJSON.Node
        do {
            root = try SourceJSON.parse(bytes: bytes)
        } catch {
            self.error("\(error.message) Fix the JSON of the theme file.", at: error.location, path: "")
            return nil
        }
        guard case .object = root.value else {
            error("A theme file must be a JSON object of token groups, not \(root.kindDescription).", at: root.location, path: "")
            return nil
        }
        collect(root, path: [], inheritedType: nil)
        var theme = Theme(name: name, file: file, colors: [:], dimensions: [:])
        var resolver = AliasResolver(tokens: tokens)
        for color in ThemeColor.allCases {
            if let parsed = value(of: color.tokenPath, type: "color", with: &resolver, parse: { $0.color($1) }) {
                theme.colors[color] = parsed
                theme.locations[color.tokenPath] = tokens[color.tokenPath]?.location
            }
        }
        for dimension in ThemeDimension.allCases {
            if let parsed = value(of: dimension.tokenPath, type: "dimension", with: &resolver, parse: { $0.dimension($1) }) {
                theme.dimensions[dimension] = parsed
                theme.locations[dimension.tokenPath] = tokens[dimension.tokenPath]?.location
            }
        }
        // Aliases in tokens the theme does not read (a palette's) are checked too.
        let semantic = Set(ThemeColor.allCases.map(\.tokenPath) + ThemeDimension.allCases.map(\.tokenPath))
        for path in tokens.keys.sorted() where !semantic.contains(path) {
            _ = resolved(path, with: &resolver, required: false)
        }
        return theme
    }

    /// A semantic token's value, aliases followed, if it is of `type` and its value parses;
    /// reports what is wrong.
    private mutating func value<Value>(
        of path: String, type expected: String, with resolver: inout AliasResolver, parse: (inout Self, SourceJSON.Node) -> Value?
    ) -> Value? {
        guard let (value, type, location) = resolved(path, with: &resolver) else { return nil }
        guard type == expected else {
            error(
                "\(path.quoted) must be a \(expected) token (\"$type\": \"\(expected)\"), not \(type.map(\.quoted) ?? "a token without a type").",
                at: location, path: path)
            return nil
        }
        return parse(&self, value)
    }

    /// A token's final value, type and location, aliases followed; reports what is wrong.
    private mutating func resolved(_ path: String, with resolver: inout AliasResolver, required: Bool = true)
        -> (SourceJSON.Node, String?, SourcePosition)?
    {
        guard let token = tokens[path] else {
            if required {
                let group = path.split(separator: ".").dropLast().joined(separator: ".")
                let hint = Suggestion.hint(for: path, in: Array(tokens.keys), listing: "tokens")
                error(
                    "The theme has no token \(path.quoted)\(hint); every theme gives every semantic token: add \(String(path.split(separator: ".").last ?? "").quoted) with a \"$value\" to the group \(group.quoted).",
                    at: nil, path: path)
            }
            return nil
        }
        switch resolver.resolve(path) {
        case .success(let final):
            guard let target = tokens[final] else { return nil }
            return (target.value, target.type ?? token.type, token.location)
        case .failure(.missing(let from, let reference)):
            error(
                "The alias \("{\(reference)}".quoted) names no token of this theme\(Suggestion.hint(for: reference, in: Array(tokens.keys), listing: "tokens")); point it at a token that exists.",
                at: tokens[from]?.value.location, path: from)
        case .failure(.cycle(let found)):
            // The cycle from its first token by name, however it was entered: reported once.
            let members = Array(found.dropLast())
            let first = members.indices.min { members[$0] < members[$1] } ?? 0
            let chain = Array(members[first...] + members[..<first]) + [members[first]]
            error(
                "The aliases form a cycle: \(chain.joined(separator: " → ")); give one of these tokens a value of its own.",
                at: tokens[chain[0]]?.value.location, path: chain[0])
        }
        return nil
    }

    /// Walks groups, recording tokens with their inherited `$type`.
    private mutating func collect(_ node: SourceJSON.Node, path: [String], inheritedType: String?) {
        guard case .object(let members) = node.value else { return }
        var type = inheritedType
        var seen: Set<String> = []
        let joined = path.joined(separator: ".")
        for member in members {
            let memberPath = joined.isEmpty ? member.key : "\(joined).\(member.key)"
            guard seen.insert(member.key).inserted else {
                error("The key \(member.key.quoted) appears twice; keep one.", at: member.keyLocation, path: memberPath)
                continue
            }
            if member.key == "$type" {
                guard case .string(let written) = member.value.value, Self.knownTypes.contains(written) else {
                    error(
                        "\"$type\" must be one of the DTCG types (\(Self.knownTypes.sorted().joined(separator: ", "))).",
                        at: member.value.location, path: memberPath)
                    continue
                }
                type = written
            }
        }
        let isToken = members.contains { $0.key == "$value" }
        if isToken {
            guard !path.isEmpty else {
                error("The file's top level is a group; put \"$value\" in a token inside a group.", at: node.location, path: "")
                return
            }
            for member in members where member.key.hasPrefix("$") == false {
                error(
                    "The token \(joined.quoted) has a member \(member.key.quoted); a token holds only \"$value\", \"$type\", \"$description\", \"$extensions\" and \"$deprecated\": move it into a group.",
                    at: member.keyLocation, path: "\(joined).\(member.key)")
            }
            let value = members.first { $0.key == "$value" }!.value
            tokens[joined] = Token(type: type, value: value, location: value.location)
            return
        }
        for member in members {
            let memberPath = joined.isEmpty ? member.key : "\(joined).\(member.key)"
            if member.key.hasPrefix("$") {
                if !["$type", "$description", "$extensions", "$deprecated", "$schema"].contains(member.key) {
                    error(
                        "\(member.key.quoted) is not a DTCG property\(Suggestion.hint(for: member.key, in: ["$type", "$description", "$extensions", "$deprecated", "$value"], listing: "properties")); names starting with $ are reserved.",
                        at: member.keyLocation, path: memberPath)
                }
                continue
            }
            if member.key.contains(where: { $0 == "." || $0 == "{" || $0 == "}" }) {
                error("The name \(member.key.quoted) holds \".\", \"{\" or \"}\", which aliases use; rename it.", at: member.keyLocation, path: memberPath)
                continue
            }
            guard case .object = member.value.value else {
                error(
                    "\(memberPath.quoted) must be a group or a token (an object with \"$value\"), not \(member.value.kindDescription).",
                    at: member.value.location, path: memberPath)
                continue
            }
            collect(member.value, path: path + [member.key], inheritedType: type)
        }
    }

    /// A DTCG colour: `{ "colorSpace": "srgb", "components": [r, g, b], "alpha": a, "hex": "#rrggbb" }`,
    /// or the hex text earlier drafts wrote.
    private mutating func color(_ node: SourceJSON.Node) -> Theme.Color? {
        let what = "A color is { \"colorSpace\": \"srgb\", \"components\": [r, g, b] } with each component from 0 to 1 (or \"#rrggbb\")"
        switch node.value {
        case .string(let text):
            if let color = Theme.Color(hex: text) { return color }
            error("\(text.quoted) is not a colour. \(what).", at: node.location, path: "")
            return nil
        case .object(let members):
            let fields = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
            guard case .string(let space)? = fields["colorSpace"]?.value, space == "srgb" else {
                error("\(what); Scenery reads the \"srgb\" colour space.", at: fields["colorSpace"]?.location ?? node.location, path: "")
                return nil
            }
            guard case .array(let components)? = fields["components"]?.value, components.count == 3 else {
                error("\(what): \"components\" needs three numbers.", at: fields["components"]?.location ?? node.location, path: "")
                return nil
            }
            var numbers: [Double] = []
            for component in components {
                guard let number = Self.number(component), (0...1).contains(number) else {
                    error("\(what): each component is a number from 0 to 1.", at: component.location, path: "")
                    return nil
                }
                numbers.append(number)
            }
            var alpha = 1.0
            if let alphaNode = fields["alpha"] {
                guard let number = Self.number(alphaNode), (0...1).contains(number) else {
                    error("\"alpha\" is a number from 0 to 1.", at: alphaNode.location, path: "")
                    return nil
                }
                alpha = number
            }
            let color = Theme.Color(red: numbers[0], green: numbers[1], blue: numbers[2], alpha: alpha)
            if let hexNode = fields["hex"] {
                guard case .string(let hex) = hexNode.value, let written = Theme.Color(hex: hex) else {
                    error("\"hex\" is the colour as \"#rrggbb\".", at: hexNode.location, path: "")
                    return nil
                }
                if written.hex.prefix(7) != color.hex.prefix(7) {
                    error(
                        "\"hex\" says \(written.hex.prefix(7)) but \"components\" say \(color.hex.prefix(7)); make them agree (the components are what is used).",
                        at: hexNode.location, path: "")
                }
            }
            return color
        default:
            error("\(what), not \(node.kindDescription).", at: node.location, path: "")
            return nil
        }
    }

    /// A DTCG dimension: `{ "value": 8, "unit": "px" }` (or `rem`).
    private mutating func dimension(_ node: SourceJSON.Node) -> Theme.Dimension? {
        let what = "A dimension is { \"value\": 8, \"unit\": \"px\" } (or \"rem\")"
        guard case .object(let members) = node.value else {
            error("\(what), not \(node.kindDescription).", at: node.location, path: "")
            return nil
        }
        let fields = Dictionary(members.map { ($0.key, $0.value) }, uniquingKeysWith: { first, _ in first })
        guard let valueNode = fields["value"], let value = Self.number(valueNode), value >= 0, value <= 1000 else {
            error("\(what): \"value\" is a number from 0 to 1000.", at: fields["value"]?.location ?? node.location, path: "")
            return nil
        }
        guard case .string(let unitText)? = fields["unit"]?.value, let unit = Theme.Dimension.Unit(rawValue: unitText) else {
            error("\(what): \"unit\" is \"px\" or \"rem\".", at: fields["unit"]?.location ?? node.location, path: "")
            return nil
        }
        return Theme.Dimension(value, unit)
    }

    private static func number(_ node: SourceJSON.Node) -> Double? {
        switch node.value {
        case .int(let value): Double(value)
        case .double(let value): value.isFinite ? value : nil
        default: nil
        }
    }
}

/// Follows `{group.token}` aliases to the token that holds a value, finding cycles.
private struct AliasResolver {
    enum Failure: Error {
        case missing(from: String, reference: String)
        case cycle([String])
    }

    let tokens: [String: ThemeReader.Token]

    /// The path of the token whose value `path` ends at.
    mutating func resolve(_ path: String) -> Result<String, Failure> {
        var chain: [String] = [path]
        var current = path
        while let token = tokens[current], let reference = Self.reference(in: token.value) {
            guard tokens[reference] != nil else { return .failure(.missing(from: current, reference: reference)) }
            if let start = chain.firstIndex(of: reference) { return .failure(.cycle(Array(chain[start...]) + [reference])) }
            chain.append(reference)
            current = reference
        }
        return .success(current)
    }

    /// The path an alias value names (`"{color.accent}"` → `color.accent`).
    static func reference(in node: SourceJSON.Node) -> String? {
        guard case .string(let text) = node.value, text.hasPrefix("{"), text.hasSuffix("}"), text.count > 2 else { return nil }
        return String(text.dropFirst().dropLast())
    }
}
