import Foundation
import Scenery
import Synchronization

/// Standard output and error, written as they come (so prompts appear before input is
/// read) and never fatal: a write that fails (a full disk, a closed pipe or descriptor)
/// is remembered, later output is dropped, and the command ends with exit code 2 and a
/// message on standard error where that is still open (``CommandFailure/outputFailed``).
package enum Output {
    private static let failure = Locked<String?>(nil)

    static func write(_ text: String) {
        write(text, to: STDOUT_FILENO, name: "standard output")
    }

    package static func line(_ text: String = "") {
        write(text + "\n")
    }

    package static func error(_ message: String) {
        write("error: \(message)\n", to: STDERR_FILENO, name: "standard error")
    }

    static func warning(_ message: String) {
        write("warning: \(message)\n", to: STDERR_FILENO, name: "standard error")
    }

    static func status(_ text: String) {
        write(text, to: STDERR_FILENO, name: "standard error")
    }

    /// What went wrong writing, if anything did.
    static var writeFailure: String? { failure.withLock { $0 } }

    /// Whether standard error is a terminal (progress is shown only there).
    static var errorIsTerminal: Bool { isatty(STDERR_FILENO) == 1 }

    /// Whether standard output is a terminal.
    static var outputIsTerminal: Bool { isatty(STDOUT_FILENO) == 1 }

    /// Whether standard input is a terminal (a person types, so a prompt helps).
    static var inputIsTerminal: Bool { isatty(STDIN_FILENO) == 1 }

    /// Writes every byte or records why it could not.
    private static func write(_ text: String, to descriptor: Int32, name: String) {
        if descriptor == STDOUT_FILENO, writeFailure != nil { return }
        var bytes = Array(text.utf8)[...]
        while !bytes.isEmpty {
            let written = bytes.withUnsafeBytes { raw in Foundation.write(descriptor, raw.baseAddress, raw.count) }
            if written < 0 {
                if errno == EINTR { continue }
                let reason = String(cString: strerror(errno))
                failure.withLock { $0 = $0 ?? "Could not write to \(name): \(reason)." }
                return
            }
            bytes = bytes.dropFirst(written)
        }
    }

    /// Makes a closed reader an error to report (EPIPE) rather than a silent kill.
    static func ignoreBrokenPipes() {
        signal(SIGPIPE, SIG_IGN)
    }
}
