import Scenery
import SceneryPageProtocol

/// The questions a page was asked (``PageProtocol/ServerMessage/confirm(question:_:action:)``)
/// and has yet to answer, each holding up the event that asked it.
///
/// A question outlives the page's socket: a page that reconnects within the grace period is
/// asked again (``asked``), and its answer, over the new socket, is the one the event waits
/// for. Only the page's end answers them no.
///
/// ```swift
/// let question = questions.nextNumber()
/// let asked = PageProtocol.ServerMessage.confirm(question: question, confirmation, action: key)
/// send(asked)
/// let accept = await withCheckedContinuation { questions.wait(question, asked: asked, for: $0) }
/// ```
struct OpenQuestions {
    private var waiting: [Int: (asked: PageProtocol.ServerMessage, answer: CheckedContinuation<Bool, Never>)] = [:]
    private var next = 1

    /// A number no question of the page had.
    mutating func nextNumber() -> Int {
        defer { next += 1 }
        return next
    }

    /// Keeps question `number`, asked as `asked`, until it is answered.
    mutating func wait(_ number: Int, asked: PageProtocol.ServerMessage, for answer: CheckedContinuation<Bool, Never>) {
        waiting[number] = (asked, answer)
    }

    /// Gives the event waiting for question `number` its answer; `false` when no question
    /// of that number waits.
    mutating func answer(_ number: Int, accept: Bool) -> Bool {
        guard let question = waiting.removeValue(forKey: number) else { return false }
        question.answer.resume(returning: accept)
        return true
    }

    /// Answers every question no (the page ended: nobody is left to answer).
    mutating func declineAll() {
        for question in waiting.values { question.answer.resume(returning: false) }
        waiting = [:]
    }

    /// The questions waiting, as they were asked, oldest first: what a page that
    /// reconnects is asked again.
    var asked: [PageProtocol.ServerMessage] {
        waiting.sorted { $0.key < $1.key }.map(\.value.asked)
    }
}
