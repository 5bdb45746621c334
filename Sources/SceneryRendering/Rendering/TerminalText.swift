/// Text for terminals: the columns text occupies, and text made safe to print.
///
/// Data is untrusted: a user name can hold escape sequences that recolour or clear a
/// terminal, or bidirectional overrides that reorder what a person reads.
/// ``sanitized(_:)`` removes them. ``displayWidth(of:)`` counts East Asian wide
/// characters (CJK, full-width forms, most emoji) as two columns, combining marks as none.
package enum TerminalText {
    /// The text with escape sequences, control characters (other than newline) and
    /// bidirectional controls removed; tabs become spaces.
    package static func sanitized(_ text: String) -> String {
        var result = String.UnicodeScalarView()
        var scalars = text.unicodeScalars.makeIterator()
        while let scalar = scalars.next() {
            switch scalar.value {
            case 0x1B:  // ESC: drop the whole sequence (other sequences: ESC and one character)
                guard let next = scalars.next() else { break }
                if next == "[" {  // CSI: parameters, then a final byte in 0x40...0x7E
                    while let byte = scalars.next(), !(0x40...0x7E).contains(byte.value) {}
                } else if next == "]" || next == "P" || next == "_" || next == "^" {  // OSC/DCS/APC/PM: until BEL or ST
                    while let byte = scalars.next() {
                        if byte.value == 0x07 { break }
                        if byte.value == 0x1B {
                            _ = scalars.next()
                            break
                        }
                    }
                }
            case 0x0A: result.append(scalar)
            case 0x09: result.append(" ")
            case 0x00...0x1F, 0x7F...0x9F: break
            case 0x061C, 0x200E, 0x200F, 0x202A...0x202E, 0x2066...0x2069: break  // bidi controls
            default: result.append(scalar)
            }
        }
        return String(result)
    }

    /// The number of terminal columns the text occupies (without line breaks). Colour
    /// sequences (`ESC [ … m`, which renderers add) take none.
    package static func displayWidth(of text: String) -> Int {
        var total = 0
        var inSequence = false
        var afterEscape = false
        for character in text {
            if afterEscape {
                afterEscape = false
                if character == "[" {
                    inSequence = true
                    continue
                }
            }
            if inSequence {
                if let value = character.unicodeScalars.first?.value, (0x40...0x7E).contains(value) { inSequence = false }
                continue
            }
            if character == "\u{1B}" {
                afterEscape = true
                continue
            }
            total += width(of: character)
        }
        return total
    }

    /// The columns of one character (grapheme cluster): 0, 1 or 2.
    package static func width(of character: Character) -> Int {
        var width = 0
        for scalar in character.unicodeScalars {
            let value = scalar.value
            if isZeroWidth(scalar) { continue }
            if isWide(value) || (scalar.properties.isEmojiPresentation && value > 0xFF) { return 2 }
            if value == 0xFE0F, width == 1 { return 2 }  // emoji presentation selector
            width = max(width, 1)
        }
        return width
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control: return true
        default: return scalar.value == 0x200B || (0xFE00...0xFE0F).contains(scalar.value) || (0x1160...0x11FF).contains(scalar.value)
        }
    }

    private static func isWide(_ value: UInt32) -> Bool {
        switch value {
        case 0x1100...0x115F, 0x231A...0x231B, 0x2329...0x232A, 0x2E80...0x303E, 0x3041...0x33FF,
            0x3400...0x4DBF, 0x4E00...0x9FFF, 0xA000...0xA4CF, 0xA960...0xA97F, 0xAC00...0xD7A3,
            0xF900...0xFAFF, 0xFE10...0xFE19, 0xFE30...0xFE6F, 0xFF00...0xFF60, 0xFFE0...0xFFE6,
            0x1F300...0x1F64F, 0x1F900...0x1F9FF, 0x20000...0x2FFFD, 0x30000...0x3FFFD:
            return true
        default:
            return false
        }
    }

    /// Wraps text into lines of at most `width` columns, breaking at spaces where possible
    /// and inside words (as CJK text needs) where not. Newlines in the text are kept.
    package static func wrap(_ text: String, width: Int) -> [String] {
        let width = max(width, 2)
        var lines: [String] = []
        for paragraph in text.split(separator: "\n", omittingEmptySubsequences: false) {
            var line = ""
            var lineWidth = 0
            for word in paragraph.split(separator: " ", omittingEmptySubsequences: false) {
                let wordWidth = displayWidth(of: String(word))
                let separator = line.isEmpty ? 0 : 1
                if lineWidth + separator + wordWidth <= width {
                    if separator == 1 { line += " " }
                    line += word
                    lineWidth += separator + wordWidth
                    continue
                }
                if !line.isEmpty, wordWidth <= width {
                    lines.append(line)
                    line = String(word)
                    lineWidth = wordWidth
                    continue
                }
                // The word does not fit on any line: break it by character.
                if separator == 1, lineWidth + 1 < width {
                    line += " "
                    lineWidth += 1
                }
                for character in word {
                    let characterWidth = Self.width(of: character)
                    if lineWidth + characterWidth > width {
                        lines.append(line)
                        line = ""
                        lineWidth = 0
                    }
                    line.append(character)
                    lineWidth += characterWidth
                }
            }
            lines.append(line)
        }
        return lines
    }

    /// The text followed by spaces up to `width` columns.
    package static func padded(_ text: String, to width: Int) -> String {
        text + String(repeating: " ", count: max(0, width - displayWidth(of: text)))
    }
}
