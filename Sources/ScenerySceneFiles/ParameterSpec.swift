import SceneryText
import SceneryViewTree

/// The declaration of one parameter of a module type or a scene.
public struct ParameterSpec: Sendable, Hashable {
    /// The parameter's name, as written in scene files.
    public var name: String
    /// The type values must have.
    public var type: ParameterType
    /// The value used when a scene file gives none; `nil` makes the parameter required.
    public var defaultValue: JSONValue?
    /// One sentence for `scenery list` and documentation.
    public var summary: String
    /// The only values allowed, for a string parameter that picks one of a few options.
    public var allowedValues: [String]?
    /// The allowed range, for an integer parameter.
    public var range: ClosedRange<Int>?
    /// For a string parameter that is a `Message`: the arguments the module gives it.
    /// Scene files and translations are checked against them.
    public var messageArguments: [MessageArgumentSpec]?

    /// Declares a parameter; without a default value it is required.
    public init(
        _ name: String, _ type: ParameterType, default defaultValue: JSONValue? = nil, allowedValues: [String]? = nil,
        range: ClosedRange<Int>? = nil, summary: String = ""
    ) {
        self.name = name
        self.type = type
        self.defaultValue = defaultValue
        self.allowedValues = allowedValues
        self.range = range
        self.summary = summary
    }

    /// Declares a parameter that is wording: a `Message` in ICU MessageFormat, with the
    /// arguments the module gives it.
    ///
    /// ```swift
    /// ParameterSpec.message(
    ///     "likes", default: "{count, plural, one {# like} other {# likes}}",
    ///     arguments: [MessageArgumentSpec("count", .number)], summary: "The like count.")
    /// ```
    /// The module reads it with `ModuleParameters.message(_:)`; a scene file's value
    /// that does not parse, uses an argument not given here, or lacks a plural case its
    /// language needs is an error at validation.
    public static func message(
        _ name: String, default defaultValue: String, arguments: [MessageArgumentSpec] = [], summary: String = ""
    ) -> ParameterSpec {
        var spec = ParameterSpec(name, .string, default: .string(defaultValue), summary: summary)
        spec.messageArguments = arguments
        return spec
    }

    /// Why `value` (already of the right type) is not allowed, or `nil` if it is.
    package func restrictionProblem(_ value: JSONValue) -> String? {
        if let allowed = allowedValues, let text = value.stringValue, !allowed.contains(text) {
            return "\(text.quoted) is not an allowed value of \(name.quoted)\(Suggestion.hint(for: text, in: allowed, listing: "allowed values"))"
        }
        if let range, let number = value.intValue, !range.contains(number) {
            return "\(name.quoted) must be from \(range.lowerBound) to \(range.upperBound), not \(number)"
        }
        if let text = value.stringValue, let problem = messageProblem(in: text) { return problem.reason }
        return nil
    }

    /// Why `text` is not a valid value of this message parameter, and for a syntax error the
    /// character it is at; `nil` when it is valid or the parameter is no message. Plural
    /// cases are the validator's to check: they depend on the scene's language.
    package func messageProblem(in text: String) -> (reason: String, offset: Int?)? {
        guard let arguments = messageArguments else { return nil }
        if let placeholder = Wording.printfPlaceholder(in: text) {
            let names = arguments.map { "{\($0.name)}" }
            let offer = names.isEmpty ? "it takes no arguments" : "write \(names.joined(separator: " or "))"
            return ("\(name.quoted) is a message, which names its arguments, but it has the printf placeholder \(placeholder); \(offer)", nil)
        }
        do {
            let problems = try Message.parsed(text).problems(against: arguments)
            return problems.first.map { ("\(name.quoted) is a message, and \($0)", nil) }
        } catch {
            return (
                "\(name.quoted) is not a valid message \(error); write it in ICU MessageFormat, such as \"{count, plural, one {# item} other {# items}}\"",
                error.offset
            )
        }
    }

    /// Whether a scene file must give a value.
    public var isRequired: Bool { defaultValue == nil }
}

/// The type of a parameter value.
public enum ParameterType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// Text.
    case string
    /// A whole number.
    case int
    /// Any number.
    case double
    /// `true` or `false`.
    case bool
    /// The id of a user, written as a string or an integer; always handed over as a string.
    case userID

    public var description: String { rawValue }

    /// Converts a value to this type, or returns `nil` if it does not fit.
    ///
    /// Integers are accepted where a `double` is expected, and strings or integers where a
    /// `userID` is expected (user ids are handed to modules as strings).
    public func coerce(_ value: JSONValue) -> JSONValue? {
        switch (self, value) {
        case (.string, .string), (.int, .int), (.double, .double), (.bool, .bool): value
        case (.double, .int(let number)): .double(Double(number))
        case (.int, .double): value.intValue.map(JSONValue.int)
        case (.userID, .string(let text)) where !text.isEmpty: value
        case (.userID, .int(let number)): .string(String(number))
        default: nil
        }
    }

    /// Parses text given on a command line (`--arg pageSize=20`) as this type.
    public func parse(_ text: String) -> JSONValue? {
        switch self {
        case .string: .string(text)
        case .userID: text.isEmpty ? nil : .string(text)
        case .int: Int(text).map(JSONValue.int)
        case .double: Double(text).map(JSONValue.double)
        case .bool: ["true": true, "false": false, "yes": true, "no": false][text.lowercased()].map(JSONValue.bool)
        }
    }

    /// The article and name, as diagnostics say it ("an integer").
    package var phrase: String {
        switch self {
        case .string: "a string"
        case .int: "an integer"
        case .double: "a number"
        case .bool: "a Boolean"
        case .userID: "a user id (string or integer)"
        }
    }
}
