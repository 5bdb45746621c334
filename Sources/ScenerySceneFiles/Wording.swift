/// Fills printf-style placeholders in wording that comes from scene files — safely.
///
/// Module parameters that are wording are `Message`s now, which name their arguments
/// and know plurals (``ParameterSpec/message(_:default:arguments:summary:)``); this stays
/// for wording of your own that is still written the printf way.
///
/// Scene files set wording such as `"Likes: %d"` or `"作者姓名: %@"`. `String(format:)`
/// trusts its format and can crash on a mismatched one; this never does.
///
/// ```swift
/// Wording.format("Likes: %d", 12)            // "Likes: 12"
/// Wording.format("%2$@ by %1$@", "Ann", "Tea")  // "Tea by Ann"
/// Wording.format("100%% sure")               // "100% sure"
/// ```
public enum Wording {
    /// Replaces `%@`, `%d`, `%i`, `%ld`, `%lld`, `%u`, `%s` with the values in order, and
    /// `%N$@` (or `%N$d`) with the N-th value; `%%` is a percent sign. A placeholder
    /// without a value becomes empty; anything else is kept as written.
    public static func format(_ template: String, _ values: any CustomStringConvertible...) -> String {
        let texts = values.map(\.description)
        var result = ""
        var next = 0
        var index = template.startIndex
        while index < template.endIndex {
            let character = template[index]
            guard character == "%", let after = template.index(index, offsetBy: 1, limitedBy: template.endIndex), after < template.endIndex
            else {
                result.append(character)
                index = template.index(after: index)
                continue
            }
            if template[after] == "%" {
                result.append("%")
                index = template.index(after: after)
                continue
            }
            // Optional position: digits followed by '$'.
            var cursor = after
            var position: Int?
            var digits = ""
            while cursor < template.endIndex, template[cursor].isASCII, template[cursor].isNumber, digits.count < 3 {
                digits.append(template[cursor])
                cursor = template.index(after: cursor)
            }
            if !digits.isEmpty, cursor < template.endIndex, template[cursor] == "$" {
                position = Int(digits)
                cursor = template.index(after: cursor)
            } else {
                cursor = after
            }
            // Length modifiers, then the conversion.
            while cursor < template.endIndex, template[cursor] == "l" { cursor = template.index(after: cursor) }
            guard cursor < template.endIndex, "@dius".contains(template[cursor]) else {
                result.append(character)
                index = template.index(after: index)
                continue
            }
            let valueIndex: Int
            if let position {
                valueIndex = position - 1
            } else {
                valueIndex = next
                next += 1
            }
            if texts.indices.contains(valueIndex) { result += texts[valueIndex] }
            index = template.index(after: cursor)
        }
        return result
    }

    /// The first printf placeholder in text (`%d`, `%ld`, `%@`, `%1$@`), if any: a message
    /// written the old way.
    package static func printfPlaceholder(in text: String) -> String? {
        var characters = text[...]
        while let percent = characters.firstIndex(of: "%") {
            var rest = characters[characters.index(after: percent)...]
            if rest.first == "%" {
                characters = rest.dropFirst()
                continue
            }
            var spelled = "%"
            while let digit = rest.first, digit.isASCII, digit.isNumber {
                spelled.append(digit)
                rest = rest.dropFirst()
            }
            if spelled.count > 1 {
                guard rest.first == "$" else {
                    characters = rest
                    continue
                }
                spelled.append("$")
                rest = rest.dropFirst()
            }
            while rest.first == "l" {
                spelled.append("l")
                rest = rest.dropFirst()
            }
            if let conversion = rest.first, "@dius".contains(conversion) {
                return spelled + String(conversion)
            }
            characters = rest
        }
        return nil
    }
}
