/// Resets of a page (the whole scene sent again from a new baseline), one at a time: a
/// reset asked for while one runs makes that one go round again instead of running beside
/// it, since a baseline makes the scene drop the updates it includes.
///
/// ```swift
/// guard resets.ask() else { return }      // one is running: it goes round again
/// repeat {
///     if !sendBaseline() { resets.ask() }  // this round did not take: another
/// } while resets.finishRound(pageEnded: hasEnded)
/// ```
struct PageResets {
    private var isRunning = false
    private var isAskedAgain = false

    /// Asks for a reset; returns whether the caller runs it (none was running). While one
    /// runs, it is asked to go round again and this returns `false`.
    @discardableResult
    mutating func ask() -> Bool {
        guard !isRunning else {
            isAskedAgain = true
            return false
        }
        isRunning = true
        isAskedAgain = false
        return true
    }

    /// A round of the running reset ended; returns whether to run another (one was asked
    /// for meanwhile and the page has not ended). When it returns `false`, no reset runs.
    mutating func finishRound(pageEnded: Bool) -> Bool {
        if isAskedAgain, !pageEnded {
            isAskedAgain = false
            return true
        }
        isRunning = false
        isAskedAgain = false
        return false
    }
}
