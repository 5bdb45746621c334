import ArgumentParser
import Foundation
import Scenery

/// `--width`: the columns of text output. Without it, text follows the terminal (its
/// size, read at each print, so a resize takes effect at the next one), then `$COLUMNS`,
/// then 80.
struct WidthOption: ParsableArguments {
    /// The widths text output accepts.
    static let range = 20...1000

    // Unconditional, so that "--width -3" reaches validation instead of reading as an option.
    @Option(
        parsing: .unconditional,
        help: ArgumentHelp(
            "Columns for text output, \(range.lowerBound)–\(range.upperBound); default: the terminal's width, $COLUMNS, or 80.", valueName: "columns"))
    var width: String?

    func validate() throws {
        guard let width else { return }
        guard let columns = Int(width) else {
            throw ValidationError("'--width \(width)' is not a number; give the columns for text output, for example --width 100.")
        }
        guard Self.range.contains(columns) else {
            throw ValidationError("'--width \(width)' is out of range; text output takes \(Self.range.lowerBound) to \(Self.range.upperBound) columns.")
        }
    }

    /// The width to render at now.
    func columns() -> Int {
        if let width, let columns = Int(width) { return columns }
        return Self.terminalColumns() ?? 80
    }

    /// The terminal's width (standard output's window), or `$COLUMNS`, clamped to the range.
    static func terminalColumns() -> Int? {
        var size = winsize()
        if isatty(STDOUT_FILENO) == 1, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 {
            return clamp(Int(size.ws_col))
        }
        if let text = Environment.value("COLUMNS"), let columns = Int(text), columns > 0 {
            return clamp(columns)
        }
        return nil
    }

    private static func clamp(_ columns: Int) -> Int { min(max(columns, range.lowerBound), range.upperBound) }
}

/// " (did you mean 'x'?)" when a candidate is close to `name`, for the middle of a sentence.
func didYouMean(_ name: String, in candidates: [String]) -> String {
    Suggestion.closest(to: name, in: candidates).map { " (did you mean '\($0)'?)" } ?? ""
}
