import Foundation
import Scenery
import Synchronization

/// Standard input as lines, read on a thread of its own so that waiting for a line never
/// holds a thread of the cooperative pool; and a way to be woken while waiting, when
/// something else needs printing (a scene changed by someone else).
final class LineReader: Sendable {
    /// What ended a wait for input.
    enum Input: Equatable, Sendable {
        /// A line the person (or script) typed.
        case line(String)
        /// The end of input.
        case end
        /// ``wake()`` was called: something other than input needs attention.
        case woken
    }

    private struct State {
        var lines: [String] = []
        var finished = false
        var waiter: (continuation: CheckedContinuation<Input, Never>, wakes: Bool)?
        /// A wake that came while nobody waited for one.
        var pendingWake = false
    }

    private let state = Locked(State())

    init() {
        Thread.detachNewThread { [self] in
            while let line = readLine(strippingNewline: true) { deliver(line) }
            deliver(nil)
        }
    }

    private func deliver(_ line: String?) {
        let ready = state.withLock { state -> (CheckedContinuation<Input, Never>, Input)? in
            if let line { state.lines.append(line) } else { state.finished = true }
            guard let waiter = state.waiter else { return nil }
            state.waiter = nil
            return (waiter.continuation, state.lines.isEmpty ? .end : .line(state.lines.removeFirst()))
        }
        if let (continuation, input) = ready { continuation.resume(returning: input) }
    }

    /// The next line, or `nil` at the end of input. Wakes do not end this wait (a
    /// confirmation's answer is read with it).
    func next() async -> String? {
        while true {
            switch await wait(wakes: false) {
            case .line(let line): return line
            case .end: return nil
            case .woken: continue
            }
        }
    }

    /// The next line, the end of input, or a wake: whichever comes first.
    func nextInput() async -> Input {
        await wait(wakes: true)
    }

    /// Ends a wait of ``nextInput()`` (now, or the next one if nobody waits).
    func wake() {
        let waiter = state.withLock { state -> CheckedContinuation<Input, Never>? in
            guard let waiter = state.waiter, waiter.wakes else {
                state.pendingWake = true
                return nil
            }
            state.waiter = nil
            return waiter.continuation
        }
        waiter?.resume(returning: .woken)
    }

    private func wait(wakes: Bool) async -> Input {
        await withCheckedContinuation { continuation in
            let ready = state.withLock { state -> Input? in
                if !state.lines.isEmpty { return .line(state.lines.removeFirst()) }
                if state.finished { return .end }
                if wakes, state.pendingWake {
                    state.pendingWake = false
                    return .woken
                }
                state.waiter = (continuation, wakes)
                return nil
            }
            if let ready { continuation.resume(returning: ready) }
        }
    }
}
