import ScenerySceneFiles

extension Theme {
    /// Reads a theme file (DTCG format), collecting every problem with its position.
    /// Returns `nil` (with the problems) when the file gives no usable theme.
    ///
    /// - Parameters:
    ///   - bytes: The file's contents.
    ///   - file: The file as diagnostics name it; its name gives the theme's name.
    package static func read(bytes: [UInt8], file: String) -> (Theme?, [Diagnostic]) {
        var reader = ThemeReader(file: file)
        let theme = reader.read(bytes)
        return (theme, reader.diagnostics)
    }
}

/// Reads a DTCG token file into a `Theme`: groups, tokens, inherited `$type`, aliases.
private struct ThemeReader {
    package let file: String
    package var diagnostics: [Diagnostic] = []

    /// A token as written: its type (own or inherited), value node, and where.
    package struct Token {
        package var type: String?
        package var value: SourceJSON.Node
        package var location: SourcePosition
    }

    /// Every token by path (`color.surface`), in file order of first sight.
    package var tokens: [String: Token] = [:]

    package init(file: String) { self.file = file }

    /// The types of the DTCG format; values of the ones a theme does not use are only checked
    /// for their shape's kind.
    package static let knownTypes: Set<String> = [
        "color", "dimension", "fontFamily", "fontWeight", "duration", "cubicBezier", "number",
        "strokeStyle", "border", "transition", "shadow", "gradient", "typography",
    ]

    /// The most tokens a theme file may hold; past it the rest are not read, and the file
    /// is refused saying so.
    package static let maximumTokens = 10_000
    /// How many problems get a did-you-mean (each compares the name with every token).
    package static let suggestedProblems = 3

    /// The messages reported so far: a problem met twice is reported once.
    private var reported: Set<String> = []
    /// The alias failures reported so far, by ``AliasResolver/Failure/key`` (a cycle is met
    /// from each of its tokens).
    private var reportedAliases: Set<String> = []
    /// How many did-you-mean hints were computed.
    private var suggestions = 0

    package mutating func error(_ message: String, at location: SourcePosition?, path: String) {
        guard reported.insert(message).inserted else { return }
        diagnostics.append(Diagnostic(.error, message, file: file, location: location, path: path))
    }

    /// " (did you mean 'x'?)" for `name` among the tokens, for the first few problems only.
    private mutating func hint(for name: String) -> String {
        guard suggestions < Self.suggestedProblems else { return "" }
        suggestions += 1
        return Suggestion.didYouMean(name, in: tokens.keys)
    }

    package mutating func read(_ bytes: [UInt8]) -> Theme? {
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
                let hint = hint(for: path)
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
        case .failure(let failure):
            guard reportedAliases.insert(failure.key).inserted else { return nil }
            report(failure)
        }
        return nil
    }

    /// Says what is wrong with an alias, once per failure.
    private mutating func report(_ failure: AliasResolver.Failure) {
        switch failure {
        case .missing(let from, let reference):
            error(
                "The alias \("{\(reference)}".quoted) names no token of this theme\(hint(for: reference)); point it at a token that exists.",
                at: tokens[from]?.value.location, path: from)
        case .cycle(let members):
            // The cycle from its first token by name, however it was entered; a long one by
            // its first few tokens.
            let first = members.indices.min { members[$0] < members[$1] } ?? 0
            let cycle = Array(members[first...] + members[..<first])
            let shown =
                cycle.count <= 8 ? (cycle + [cycle[0]]).joined(separator: " → ") : cycle.prefix(8).joined(separator: " → ") + " → … (\(cycle.count) tokens)"
            error(
                "The aliases form a cycle: \(shown); give one of these tokens a value of its own.",
                at: tokens[cycle[0]]?.value.location, path: cycle[0])
        case .tooDeep(let from):
            error(
                "From \(from.quoted) more than \(AliasResolver.maximumDepth) aliases follow one another before a value (the limit); point \(from.quoted) nearer to a token with a value.",
                at: tokens[from]?.value.location, path: from)
        }
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
            guard tokens.count < Self.maximumTokens else {
                error(
                    "The theme has more than \(Self.maximumTokens) tokens (the limit); the rest are not read. Keep a theme to the tokens pages use, and split a large palette.",
                    at: value.location, path: joined)
                return
            }
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

/// Follows `{group.token}` aliases to the token that holds a value, finding cycles, chains
/// longer than ``maximumDepth`` and aliases to nothing.
///
/// Each token is resolved once: what a walk finds is kept for every token it passed, so a
/// file of n tokens costs O(n) however its aliases chain (a 3,000-alias chain once took a
/// minute when every token walked the chain again).
private struct AliasResolver {
    package enum Failure: Error {
        /// `from` names `reference`, which is no token.
        case missing(from: String, reference: String)
        /// The aliases loop through these tokens, in the order they name each other.
        case cycle([String])
        /// From `from`, more than ``maximumDepth`` aliases follow one another.
        case tooDeep(from: String)

        /// What tells one failure from another, cheaply: a token names one alias only, so
        /// two cycles that share a token are the same cycle.
        package var key: String {
            switch self {
            case .missing(let from, _): "missing \(from)"
            case .cycle(let members): "cycle \(members.first ?? "")"
            case .tooDeep(let from): "deep \(from)"
            }
        }
    }

    /// The most aliases one token's value may pass through before its value.
    package static let maximumDepth = 32

    private let tokens: [String: ThemeReader.Token]
    /// What each token resolved to: the token holding its value and how many aliases away.
    private var resolved: [String: Result<(path: String, depth: Int), Failure>] = [:]

    package init(tokens: [String: ThemeReader.Token]) { self.tokens = tokens }

    /// The path of the token whose value `path` ends at.
    package mutating func resolve(_ path: String) -> Result<String, Failure> {
        var chain: [String] = []  // the aliases walked, none resolved before
        var position: [String: Int] = [:]
        var current = path
        var outcome: Result<(path: String, depth: Int), Failure>
        while true {
            if let known = resolved[current] {
                outcome = known
                break
            }
            if let start = position[current] {
                outcome = .failure(.cycle(Array(chain[start...])))
                break
            }
            guard let reference = tokens[current].flatMap({ Self.reference(in: $0.value) }) else {
                outcome = .success((current, 0))
                resolved[current] = outcome
                break
            }
            position[current] = chain.count
            chain.append(current)
            guard tokens[reference] != nil else {
                outcome = .failure(.missing(from: current, reference: reference))
                break
            }
            current = reference
        }
        // Back along the walk: each alias is one further from its value than the next.
        for alias in chain.reversed() {
            if case .success(let target) = outcome {
                outcome = target.depth < Self.maximumDepth ? .success((target.path, target.depth + 1)) : .failure(.tooDeep(from: alias))
            }
            resolved[alias] = outcome
        }
        return outcome.map(\.path)
    }

    /// The path an alias value names (`"{color.accent}"` → `color.accent`).
    package static func reference(in node: SourceJSON.Node) -> String? {
        guard case .string(let text) = node.value, text.hasPrefix("{"), text.hasSuffix("}"), text.count > 2 else { return nil }
        return String(text.dropFirst().dropLast())
    }
}
