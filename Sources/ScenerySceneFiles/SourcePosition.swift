/// A position in a scene file (or any JSON): 1-based line and column.
///
/// Named so it does not clash with Swift Testing's `SourceLocation` in test targets.
///
/// Columns count UTF-8 bytes, as compilers do, so editors and CI jump to the right place.
public struct SourcePosition: Sendable, Hashable, Comparable, CustomStringConvertible {
    /// The 1-based line number.
    public var line: Int
    /// The 1-based column, in UTF-8 bytes from the start of the line.
    public var column: Int

    /// Creates a location from a 1-based line and column.
    public init(line: Int, column: Int) {
        self.line = line
        self.column = column
    }

    public static func < (lhs: SourcePosition, rhs: SourcePosition) -> Bool {
        (lhs.line, lhs.column) < (rhs.line, rhs.column)
    }

    public var description: String { "\(line):\(column)" }

    /// The position of a character of a JSON string value that starts (at its opening
    /// quote) here: past the quote and the characters before it as the file writes them,
    /// escapes included (`\"` is two bytes, `\u00e9` six, `é` two). `nil` offset: here.
    package func movedTo(character offset: Int?, ofStringIn source: [UInt8]) -> SourcePosition {
        guard let offset else { return self }
        var lineStart = 0
        var currentLine = 1
        while currentLine < line, let newline = source[lineStart...].firstIndex(of: UInt8(ascii: "\n")) {
            lineStart = newline + 1
            currentLine += 1
        }
        var index = lineStart + column - 1
        guard currentLine == line, source.indices.contains(index), source[index] == UInt8(ascii: "\"") else { return self }
        index += 1
        var characters = 0
        while index < source.count, characters < offset, source[index] != UInt8(ascii: "\""), source[index] != UInt8(ascii: "\n") {
            if source[index] == UInt8(ascii: "\\") {
                index += index + 1 < source.count && source[index + 1] == UInt8(ascii: "u") ? 6 : 2
            } else {
                // A UTF-8 lead byte and its continuation bytes are one character.
                index += 1
                while index < source.count, source[index] & 0xC0 == 0x80 { index += 1 }
            }
            characters += 1
        }
        return SourcePosition(line: line, column: index - lineStart + 1)
    }
}
