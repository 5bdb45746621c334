import Foundation

extension Message {
    /// A value handed to a ``Message``: text, a number or a date.
    ///
    /// Literals work where an argument is expected: `["name": "Ann", "count": 3]`.
    public enum Argument: Sendable, Hashable, ExpressibleByStringLiteral, ExpressibleByIntegerLiteral, ExpressibleByFloatLiteral {
        case text(String)
        case integer(Int)
        case number(Double)
        case date(Date)

        public init(stringLiteral value: String) { self = .text(value) }
        public init(integerLiteral value: Int) { self = .integer(value) }
        public init(floatLiteral value: Double) { self = .number(value) }

        /// The longest text an argument is shown with; longer text is cut, with "…".
        public static let maximumTextLength = 1_000

        /// The argument as a number, if it is one.
        var numericValue: Double? {
            switch self {
            case .integer(let value): Double(value)
            case .number(let value): value
            case .text, .date: nil
            }
        }
    }

    /// What kind of value a message argument must be, as a module declares it.
    public enum ArgumentType: String, Sendable, Hashable, CaseIterable, CustomStringConvertible {
        /// Text, shown as it is (a name, a title); it may be a select's key.
        case text
        /// A number: it may be formatted (`{n, number}`) and pluralized (`{n, plural, …}`).
        case number
        /// A date: it may be formatted (`{d, date}`, `{d, time}`).
        case date

        public var description: String { rawValue }
    }
}

/// One argument a module gives a message: its name and kind, and what it is.
///
/// ```swift
/// MessageArgumentSpec("count", .number, summary: "How many blogs.")
/// ```
public struct MessageArgumentSpec: Sendable, Hashable {
    public var name: String
    public var type: Message.ArgumentType
    public var summary: String

    public init(_ name: String, _ type: Message.ArgumentType, summary: String = "") {
        self.name = name
        self.type = type
        self.summary = summary
    }
}
