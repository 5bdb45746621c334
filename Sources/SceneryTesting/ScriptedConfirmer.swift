import Scenery
import Synchronization

/// Answers confirmations from a script, and remembers what it was asked.
///
/// ```swift
/// let confirmer = ScriptedConfirmer(answers: [false, true])  // decline, then accept
/// let host = RecordingHost(confirmer: confirmer)
/// ```
///
/// When the script runs out, it answers ``fallback`` and records the question in
/// ``unexpected``, so a test can tell a confirmation it did not plan for.
public final class ScriptedConfirmer: Sendable {
    private struct State {
        var answers: [Bool]
        var asked: [Confirmation] = []
        var unexpected: [Confirmation] = []
    }

    private let state: Locked<State>
    /// The answer once the scripted answers are used up.
    public let fallback: Bool

    /// Creates a confirmer that gives `answers` in order, then `fallback`.
    public init(answers: [Bool] = [], fallback: Bool = false) {
        state = Locked(State(answers: answers))
        self.fallback = fallback
    }

    /// A confirmer that accepts everything.
    public static var acceptingAll: ScriptedConfirmer { ScriptedConfirmer(fallback: true) }

    /// A confirmer that declines everything.
    public static var decliningAll: ScriptedConfirmer { ScriptedConfirmer(fallback: false) }

    /// Adds answers to the end of the script.
    public func enqueue(_ answers: [Bool]) {
        state.withLock { $0.answers += answers }
    }

    /// Answers a confirmation: the next scripted answer, or ``fallback``.
    public func answer(_ confirmation: Confirmation) -> Bool {
        state.withLock { state in
            state.asked.append(confirmation)
            guard !state.answers.isEmpty else {
                state.unexpected.append(confirmation)
                return fallback
            }
            return state.answers.removeFirst()
        }
    }

    /// Every confirmation asked, in order.
    public var asked: [Confirmation] { state.withLock { $0.asked } }

    /// Confirmations asked after the scripted answers ran out.
    public var unexpected: [Confirmation] { state.withLock { $0.unexpected } }

    /// Scripted answers not used yet.
    public var remainingAnswers: [Bool] { state.withLock { $0.answers } }
}
