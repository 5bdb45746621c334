import SceneryText
/// A field in the view tree's JSON form:
/// `{"name", "label", "value", "placeholder", "multiline", "lines", "maxLength", "keyboard", "rules", "error", "changes"}`,
/// with `multiline` and the `lines` it shows for a text area, and each rule
/// `{"rule": "required" | "length" | "pattern", "min", "max", "pattern", "message"}`.
extension TextField: Codable {
    private enum CodingKeys: String, CodingKey {
        case name, label, value, placeholder, multiline, lines, maxLength, keyboard, rules, error, changes
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let multiline = try container.decodeIfPresent(Bool.self, forKey: .multiline) ?? false
        let lines = try container.decodeIfPresent(Int.self, forKey: .lines) ?? (multiline ? 3 : 1)
        guard lines >= 1 else {
            throw DecodingError.dataCorruptedError(forKey: .lines, in: container, debugDescription: "A field shows at least one line; lines is \(lines).")
        }
        let maximumLength = try container.decodeIfPresent(Int.self, forKey: .maxLength)
        if let maximumLength, maximumLength < 0 {
            throw DecodingError.dataCorruptedError(
                forKey: .maxLength, in: container, debugDescription: "maxLength is a number of characters, 0 or more; it is \(maximumLength).")
        }
        self.init(
            name: try container.decode(String.self, forKey: .name),
            label: try container.decode(String.self, forKey: .label),
            value: try container.decodeIfPresent(String.self, forKey: .value) ?? "",
            placeholder: try container.decodeIfPresent(String.self, forKey: .placeholder),
            lines: multiline ? .multiple(lines) : .single,
            maximumLength: maximumLength,
            keyboard: try container.decodeIfPresent(Keyboard.self, forKey: .keyboard) ?? .text,
            rules: try container.decodeIfPresent([FieldRule].self, forKey: .rules) ?? [],
            error: try container.decodeIfPresent(String.self, forKey: .error),
            changes: try container.decodeIfPresent(EventDescriptor.self, forKey: .changes))
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(label, forKey: .label)
        try container.encode(value, forKey: .value)
        try container.encodeIfPresent(placeholder, forKey: .placeholder)
        if case .multiple(let rows) = lines {
            try container.encode(true, forKey: .multiline)
            try container.encode(max(rows, 1), forKey: .lines)
        }
        try container.encodeIfPresent(maximumLength, forKey: .maxLength)
        try container.encode(keyboard, forKey: .keyboard)
        if !rules.isEmpty { try container.encode(rules, forKey: .rules) }
        try container.encodeIfPresent(error, forKey: .error)
        try container.encodeIfPresent(changes, forKey: .changes)
    }
}

extension FieldRule: Codable {
    private enum CodingKeys: String, CodingKey {
        case rule, min, max, pattern, message
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        let message = try container.decodeIfPresent(String.self, forKey: .message)
        switch try container.decode(String.self, forKey: .rule) {
        case "required": self.init(.required, message: message)
        case "length":
            let minimum = try container.decodeIfPresent(Int.self, forKey: .min) ?? 0
            let maximum = try container.decode(Int.self, forKey: .max)
            guard minimum >= 0, minimum <= maximum else {
                throw DecodingError.dataCorruptedError(
                    forKey: .max, in: container, debugDescription: "A length rule needs 0 <= min <= max; it has min \(minimum), max \(maximum).")
            }
            self.init(.length(minimum...maximum), message: message)
        case "pattern": self.init(.pattern(try container.decode(String.self, forKey: .pattern)), message: message)
        case let other:
            throw DecodingError.dataCorruptedError(
                forKey: .rule, in: container, debugDescription: "Unknown rule \(other.quoted); a rule is required, length or pattern.")
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        switch kind {
        case .required: try container.encode("required", forKey: .rule)
        case .length(let range):
            try container.encode("length", forKey: .rule)
            try container.encode(range.lowerBound, forKey: .min)
            try container.encode(range.upperBound, forKey: .max)
        case .pattern(let pattern):
            try container.encode("pattern", forKey: .rule)
            try container.encode(pattern, forKey: .pattern)
        }
        try container.encodeIfPresent(message, forKey: .message)
    }
}
