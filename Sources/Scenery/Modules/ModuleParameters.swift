/// The validated parameters a module is created from.
///
/// Every value has been checked against the module's ``ModuleDescriptor`` and has its
/// declared type; defaults are filled in; `$parameter` references are substituted.
///
/// ```swift
/// init(parameters: ModuleParameters, service: any BlogService) throws {
///     author = try parameters.string("author")
///     pageSize = try parameters.int("pageSize")
/// }
/// ```
public struct ModuleParameters: Sendable, Hashable {
    /// The values by parameter name.
    public var values: [String: JSONValue]
    /// The language the module's messages are formatted in: the scene's, or the viewer's.
    public var locale = MessageLocale.english

    /// Creates parameters from values as they are, unchecked and without defaults.
    /// To create a module directly (in a test, a preview), use ``init(for:_:)``, which
    /// fills defaults and checks values as a scene file's are.
    public init(_ values: [String: JSONValue] = [:]) {
        self.values = values
    }

    /// Parameters for a module type as a scene would give them: `values` checked against
    /// the descriptor (known names, types, allowed values, ranges) and every default filled
    /// in, so the module can be created directly.
    ///
    /// ```swift
    /// let blogs = try BlogModule(
    ///     parameters: ModuleParameters(for: BlogModule.descriptor, ["author": "1"]),  // pageSize: its default
    ///     context: context, service: store)
    /// ```
    /// - Throws: ``ParameterError`` naming an unknown parameter, a missing required one, or
    ///   a value of the wrong type or out of range.
    public init(for descriptor: ModuleDescriptor, _ values: [String: JSONValue] = [:]) throws(ParameterError) {
        var checked: [String: JSONValue] = [:]
        for (name, value) in values.sorted(by: { $0.key < $1.key }) {
            guard let spec = descriptor.parameter(named: name) else {
                let hint = Suggestion.hint(for: name, in: descriptor.parameters.map(\.name), listing: "parameters")
                throw ParameterError(message: "\(descriptor.type) has no parameter \(name.quoted)\(hint).")
            }
            guard let coerced = spec.type.coerce(value) else {
                throw ParameterError(message: "\(name.quoted) of \(descriptor.type) must be \(spec.type.phrase), not \(value.kindDescription).")
            }
            if let problem = spec.restrictionProblem(coerced) { throw ParameterError(message: "\(descriptor.type): \(problem).") }
            checked[name] = coerced
        }
        for spec in descriptor.parameters where checked[spec.name] == nil {
            guard let fallback = spec.defaultValue else {
                throw ParameterError(message: "\(descriptor.type) needs the parameter \(spec.name.quoted) (\(spec.type.phrase)); give it a value.")
            }
            checked[spec.name] = fallback
        }
        self.values = checked
    }

    /// The raw value of a parameter, if given.
    public subscript(name: String) -> JSONValue? { values[name] }

    /// A string (or user id) parameter.
    /// - Throws: ``ParameterError`` if it is missing or not a string.
    public func string(_ name: String) throws(ParameterError) -> String {
        try typed(name, "a string", \.stringValue)
    }

    /// An integer parameter.
    public func int(_ name: String) throws(ParameterError) -> Int {
        try typed(name, "an integer", \.intValue)
    }

    /// A message parameter (declared with `ParameterSpec.message(_:default:arguments:summary:)`),
    /// ready to format in the scene's locale.
    ///
    /// ```swift
    /// let likes = try parameters.message("likes")
    /// likes(["count": 3])   // "3 likes"
    /// ```
    /// - Throws: ``ParameterError`` if it is missing, not a string, or not a valid message.
    public func message(_ name: String) throws(ParameterError) -> LocalizedMessage {
        let text = try string(name)
        do {
            return LocalizedMessage(try Message.parsed(text), locale: locale)
        } catch {
            throw ParameterError(message: "The parameter \(name.quoted) is not a valid message (\(error)); write it in ICU MessageFormat.")
        }
    }

    /// A message parameter without arguments (a title, a label), as the viewer reads it.
    ///
    /// ```swift
    /// moreTitle = try parameters.text("moreTitle")   // "Load more", "加载更多"
    /// ```
    /// - Throws: ``ParameterError`` as ``message(_:)`` does.
    public func text(_ name: String) throws(ParameterError) -> String {
        try message(name)()
    }

    /// A number parameter.
    public func double(_ name: String) throws(ParameterError) -> Double {
        try typed(name, "a number", \.doubleValue)
    }

    /// A Boolean parameter.
    public func bool(_ name: String) throws(ParameterError) -> Bool {
        try typed(name, "a Boolean", \.boolValue)
    }

    private func typed<T>(_ name: String, _ expected: String, _ read: (JSONValue) -> T?) throws(ParameterError) -> T {
        guard let value = values[name] else {
            throw ParameterError(message: "The parameter \(name.quoted) is missing; give it in the scene file's \"params\".")
        }
        guard let typed = read(value) else {
            throw ParameterError(message: "The parameter \(name.quoted) must be \(expected), not \(value.kindDescription).")
        }
        return typed
    }
}

/// A parameter a module needs is missing or has the wrong type.
public struct ParameterError: Error, Sendable, Hashable, CustomStringConvertible {
    /// What is wrong and how to fix it.
    public var message: String
    public var description: String { message }

    /// Creates an error with a message that says what is wrong and how to fix it.
    public init(message: String) {
        self.message = message
    }
}
