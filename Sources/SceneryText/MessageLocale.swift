import Foundation

/// What formatting a message needs of a language: its plural rules, its direction and
/// how it writes numbers and dates.
///
/// ```swift
/// let arabic = MessageLocale("ar")
/// arabic.isRightToLeft              // true
/// arabic.pluralRules.categories     // [.zero, .one, .two, .few, .many, .other]
/// ```
public struct MessageLocale: Sendable, Hashable {
    /// The BCP 47 tag, as given.
    public let identifier: String
    /// The plural rules of the language (CLDR's nearest).
    package let pluralRules: PluralRules
    /// Whether the language is written right to left (Arabic, Hebrew, Persian, Urdu, …).
    public let isRightToLeft: Bool
    /// Whether this is the pseudo-locale (`en-XA`): English rules, words
    /// accented and lengthened.
    public let isPseudo: Bool
    /// Looked up in Foundation the first time a number needs them (ICU's locale data costs
    /// a command's start several milliseconds, and most messages show small whole numbers).
    private var groupingSeparator: String { Self.separators(of: identifier).grouping }
    private var decimalSeparator: String { Self.separators(of: identifier).decimal }

    /// The locale of a BCP 47 tag such as `en`, `zh-Hans` or `ar`.
    public init(_ identifier: String) {
        self.identifier = identifier
        pluralRules = PluralRules(for: identifier)
        isRightToLeft = LanguageTag.isRightToLeft(identifier)
        isPseudo = PseudoLocale.isPseudo(identifier)
    }

    /// Each language's separators, looked up in Foundation once.
    private static let knownSeparators = Locked<[String: (String, String)]>([:])

    private static func separators(of identifier: String) -> (grouping: String, decimal: String) {
        if let known = knownSeparators.withLock({ $0[identifier] }) { return known }
        let foundation = Locale(identifier: identifier)
        let found = (foundation.groupingSeparator ?? ",", foundation.decimalSeparator ?? ".")
        knownSeparators.withLock { $0[identifier] = found }
        return found
    }

    /// English, the language of modules' default wording.
    public static let english = MessageLocale("en")

    public static func == (lhs: Self, rhs: Self) -> Bool { lhs.identifier == rhs.identifier }
    public func hash(into hasher: inout Hasher) { hasher.combine(identifier) }

    /// A whole number with the language's digit grouping (`1,200`, `1 200`, `1.200`).
    public func format(_ value: Int) -> String {
        let digits = String(value.magnitude)
        guard digits.count > 3 else { return value < 0 ? "-" + digits : digits }
        var grouped = ""
        let separator = groupingSeparator
        for (index, digit) in digits.enumerated() {
            if index > 0, (digits.count - index) % 3 == 0 { grouped += separator }
            grouped.append(digit)
        }
        return value < 0 ? "-" + grouped : grouped
    }

    /// A number with up to three fraction digits, as many as it needs.
    public func format(_ value: Double) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-∞" : "∞") }
        let operands = PluralOperands(value, fractionDigits: 3)
        let whole = operands.i == Int.max ? String(format: "%.0f", value.magnitude) : format(operands.i)
        var text = value < 0 && operands.n > 0 ? "-" + whole : whole
        if operands.w > 0 {
            var fraction = String(operands.t)
            while fraction.count < operands.w { fraction = "0" + fraction }
            text += decimalSeparator + fraction
        }
        return text
    }

    /// The operands a plural rule sees for a value formatted as ``format(_:)-(Double)`` shows it.
    func operands(for argument: Message.Argument) -> PluralOperands {
        switch argument {
        case .integer(let value): PluralOperands(value)
        case .number(let value): PluralOperands(value, fractionDigits: PluralOperands(value, fractionDigits: 3).w)
        case .text(let text): Double(text).map { PluralOperands($0) } ?? PluralOperands(0)
        case .date: PluralOperands(0)
        }
    }

    /// A date or time in one of the styles, in UTC.
    func format(_ date: Date, date dateStyle: Message.DateStyle?, time timeStyle: Message.DateStyle?) -> String {
        var style = Date.FormatStyle(date: .omitted, time: .omitted, locale: Locale(identifier: identifier), timeZone: TimeZone(identifier: "UTC")!)
        if let dateStyle {
            style = style.year().month(dateStyle == .short ? .twoDigits : (dateStyle == .medium ? .abbreviated : .wide)).day()
            if dateStyle == .full { style = style.weekday(.wide) }
        }
        if let timeStyle {
            style = style.hour().minute()
            if timeStyle != .short { style = style.second() }
        }
        return date.formatted(style)
    }
}
