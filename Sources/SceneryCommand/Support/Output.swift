import Foundation

/// Standard output and error, flushed as written (so prompts appear before input is read).
enum Output {
    static func write(_ text: String) {
        FileHandle.standardOutput.write(Data(text.utf8))
    }

    static func line(_ text: String = "") {
        write(text + "\n")
    }

    static func error(_ message: String) {
        FileHandle.standardError.write(Data("error: \(message)\n".utf8))
    }

    static func status(_ text: String) {
        FileHandle.standardError.write(Data(text.utf8))
    }

    /// Whether standard error is a terminal (progress is shown only there).
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }
}
