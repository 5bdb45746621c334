import Foundation
import Synchronization

/// Lines of standard input, read on a thread of their own so that waiting for a person
/// never blocks the runtime's threads. One reader at a time.
final class LineReader: Sendable {
    private struct State {
        var lines: [String] = []
        var finished = false
        var waiter: CheckedContinuation<String?, Never>?
    }

    private let state = Mutex(State())

    init() {
        Thread.detachNewThread { [self] in
            while let line = readLine(strippingNewline: true) { deliver(line) }
            deliver(nil)
        }
    }

    private func deliver(_ line: String?) {
        let waiter = state.withLock { state -> CheckedContinuation<String?, Never>? in
            if let waiter = state.waiter {
                state.waiter = nil
                if line == nil { state.finished = true }
                return waiter
            }
            if let line { state.lines.append(line) } else { state.finished = true }
            return nil
        }
        waiter?.resume(returning: line)
    }

    /// The next line, or `nil` at the end of input.
    func next() async -> String? {
        await withCheckedContinuation { continuation in
            let ready: String?? = state.withLock { state in
                if !state.lines.isEmpty { return .some(state.lines.removeFirst()) }
                if state.finished { return .some(nil) }
                state.waiter = continuation
                return .none
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
