extension Message {
    /// The message with its arguments filled in, in a locale.
    ///
    /// Numbers are grouped as the locale writes them, plurals follow its CLDR rules, and
    /// text arguments are cut at ``Message/Argument/maximumTextLength`` characters and, when
    /// they hold right-to-left letters or bidi controls (or the locale is right to left),
    /// isolated (U+2068 … U+2069) so that they never reorder the words around them.
    /// An argument not given is shown as `{name}`, so that the gap is seen, not hidden.
    ///
    /// In the pseudo-locale (`en-XA`) the message's own words are accented and the
    /// whole is lengthened and bracketed; its arguments are shown as they are.
    public func format(_ arguments: [String: Message.Argument] = [:], in locale: MessageLocale) -> String {
        var result = ""
        Self.append(parts, to: &result, arguments: arguments, locale: locale, number: nil)
        return locale.isPseudo ? PseudoLocale.expanded(result, length: result.count) : result
    }

    private static func append(
        _ parts: [Part], to result: inout String, arguments: [String: Message.Argument], locale: MessageLocale, number: Message.Argument?
    ) {
        for part in parts {
            switch part {
            case .text(let text):
                result += locale.isPseudo ? String(text.map(PseudoLocale.accent)) : text
            case .pound:
                if let number { result += formatted(number, style: .number(.decimal), locale: locale) }
            case .argument(let name, let style):
                guard let value = arguments[name] else {
                    result += "{\(name)}"
                    continue
                }
                result += formatted(value, style: style, locale: locale)
            case .plural(let name, let offset, let cases):
                let value = arguments[name] ?? .integer(0)
                // `#` and the category are of the number less the offset; `=N` of the number.
                let shown: Message.Argument =
                    switch value {
                    case .integer(let integer): .integer(integer.subtractingReportingOverflow(offset).partialValue)
                    default: .number((value.numericValue ?? 0) - Double(offset))
                    }
                let chosen = pluralCase(of: value, shown: shown, in: cases, locale: locale)
                append(chosen, to: &result, arguments: arguments, locale: locale, number: shown)
            case .select(let name, let cases):
                let key: String
                switch arguments[name] {
                case .text(let text)?: key = text
                case .integer(let integer)?: key = String(integer)
                default: key = "other"
                }
                let chosen = cases.first { $0.key == key } ?? cases.first { $0.key == "other" }
                append(chosen?.parts ?? [], to: &result, arguments: arguments, locale: locale, number: number)
            }
        }
    }

    private static func pluralCase(of value: Message.Argument, shown: Message.Argument, in cases: [PluralCase], locale: MessageLocale) -> [Part] {
        if case .integer(let integer) = value, let exact = cases.first(where: { $0.selector == .exact(integer) }) {
            return exact.parts
        }
        if let number = value.numericValue, number.rounded() == number, number.magnitude < 1e15,
            let exact = cases.first(where: { $0.selector == .exact(Int(number)) })
        {
            return exact.parts
        }
        let category = locale.pluralRules.category(for: locale.operands(for: shown))
        return (cases.first { $0.selector == .category(category) } ?? cases.first { $0.selector == .category(.other) })?.parts ?? []
    }

    private static func formatted(_ value: Message.Argument, style: ArgumentStyle, locale: MessageLocale) -> String {
        switch (value, style) {
        // A date or time is a run of digits and separators: in a right-to-left sentence it is
        // isolated, or its parts read in the wrong order.
        case (.date(let date), .date(let dateStyle)): return isolatedInRightToLeft(locale.format(date, date: dateStyle, time: nil), in: locale)
        case (.date(let date), .time(let timeStyle)): return isolatedInRightToLeft(locale.format(date, date: nil, time: timeStyle), in: locale)
        case (.date(let date), _): return isolatedInRightToLeft(locale.format(date, date: .medium, time: nil), in: locale)
        case (.integer(let integer), .number(.percent)): return locale.format(integer.multipliedReportingOverflow(by: 100).partialValue) + "%"
        case (.number(let number), .number(.percent)): return locale.format(number * 100) + "%"
        case (.number(let number), .number(.integer)): return locale.format(number.isFinite ? number.rounded() : number)
        case (.integer(let integer), _): return locale.format(integer)
        case (.number(let number), _): return locale.format(number)
        case (.text(let text), _): return isolated(text, in: locale)
        }
    }

    /// `text` between first-strong and pop isolates (U+2068 … U+2069) in a right-to-left
    /// language; as it is otherwise.
    static func isolatedInRightToLeft(_ text: String, in locale: MessageLocale) -> String {
        locale.isRightToLeft ? "\u{2068}" + text + "\u{2069}" : text
    }

    /// Text cut to the maximum length and isolated when it could reorder its surroundings.
    static func isolated(_ text: String, in locale: MessageLocale) -> String {
        var bounded = text
        if text.unicodeScalars.count > Message.Argument.maximumTextLength {
            // Count characters only when the scalars say it may be too long.
            if text.count > Message.Argument.maximumTextLength {
                bounded = String(text.prefix(Message.Argument.maximumTextLength - 1)) + "…"
            }
        }
        let needsIsolation = locale.isRightToLeft || bounded.unicodeScalars.contains { BidiClass.isRightToLeftOrControl($0) }
        return needsIsolation ? "\u{2068}" + bounded + "\u{2069}" : bounded
    }
}

/// Just enough of the Unicode bidirectional classes to decide on isolation.
enum BidiClass {
    /// Whether a scalar is a strong right-to-left letter or an explicit bidi control.
    static func isRightToLeftOrControl(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x200E, 0x200F, 0x061C, 0x202A...0x202E, 0x2066...0x2069: true
        case 0x0590...0x08FF, 0xFB1D...0xFDFF, 0xFE70...0xFEFF, 0x10800...0x10FFF, 0x1E800...0x1EFFF: true
        default: false
        }
    }
}
