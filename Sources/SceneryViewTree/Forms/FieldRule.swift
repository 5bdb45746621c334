import SceneryText
/// A rule a field's text must keep: required, a length range, a pattern.
///
/// Rules are data, so a host checks them before sending (the browser shows the message at
/// once) and the module checks them again on submit (a host is never trusted). A check the
/// rules cannot say (a name already taken) is the module's, after submit: it sets the
/// field's ``TextField/error``.
///
/// ```swift
/// let rules: [FieldRule] = [.required(), .length(3...40), .matching("[a-z0-9-]+", "Use lower-case letters, digits and '-'.")]
/// ```
public struct FieldRule: Sendable, Hashable {
    /// What the rule asks.
    public enum Kind: Sendable, Hashable {
        /// Something other than white space.
        case required
        /// A number of characters in this range.
        case length(ClosedRange<Int>)
        /// The whole text matches this regular expression.
        case pattern(String)
    }

    /// What the rule asks.
    public var kind: Kind
    /// The message shown when the text breaks the rule; `nil` uses a message made from the
    /// field's label.
    public var message: String?

    /// A rule of a kind, with its own message or the default one.
    public init(_ kind: Kind, message: String? = nil) {
        self.kind = kind
        self.message = message
    }

    /// The text must be more than white space.
    public static func required(_ message: String? = nil) -> FieldRule {
        FieldRule(.required, message: message)
    }

    /// The text must have a number of characters in `range` (an empty text is left to
    /// ``required(_:)``), and at most ``TextField/bytesPerCharacter`` bytes per character
    /// of its upper bound.
    public static func length(_ range: ClosedRange<Int>, _ message: String? = nil) -> FieldRule {
        FieldRule(.length(range), message: message)
    }

    /// The whole text must match `pattern` (a regular expression; an empty text is left to
    /// ``required(_:)``); `message` says what is expected.
    public static func matching(_ pattern: String, _ message: String) -> FieldRule {
        FieldRule(.pattern(pattern), message: message)
    }

    /// What is wrong with `text` under this rule, for a field labelled `label`, or `nil`.
    public func problem(with text: String, label: String) -> String? {
        switch kind {
        case .required:
            guard text.allSatisfy(\.isWhitespace) else { return nil }
            return message ?? "\(label) is required."
        case .length(let range):
            guard !text.isEmpty else { return nil }
            if let problem = TextField.byteProblem(of: text, atMost: range.upperBound, label: label) { return message ?? problem }
            guard !range.contains(text.count) else { return nil }
            return message ?? "\(label) is \(range.lowerBound) to \(range.upperBound) characters; it has \(text.count)."
        case .pattern(let pattern):
            guard !text.isEmpty else { return nil }
            guard let regex = try? Regex(pattern) else {
                return "\(label) cannot be checked: its pattern \(pattern.quoted) is not a regular expression (a mistake of the module)."
            }
            guard (try? regex.wholeMatch(in: text)) == nil else { return nil }
            return message ?? "\(label) is not in the expected form."
        }
    }
}
