/// A request where only the newest counts (where a long list's window should start: the page
/// scrolled on), handled by a task that runs only while one waits.
///
/// ```swift
/// var moves = NewestRequest<Int>()
/// if moves.put(40) { Task { while let start = moves.take() { await move(to: start) } } }
/// moves.put(80)  // false: the running task takes 80 next; 40, if not taken yet, is dropped
/// ```
struct NewestRequest<Value> {
    private var waiting: Value?
    private var isHandling = false

    /// Puts `value` in place of any request not handled yet; returns whether a task must
    /// start to handle it (none is handling requests).
    @discardableResult
    mutating func put(_ value: Value) -> Bool {
        waiting = value
        guard !isHandling else { return false }
        isHandling = true
        return true
    }

    /// The request to handle now; `nil` when none waits, which ends the task's turn.
    mutating func take() -> Value? {
        guard let value = waiting else {
            isHandling = false
            return nil
        }
        waiting = nil
        return value
    }

    /// Drops the waiting request (the page ended).
    mutating func removeAll() {
        waiting = nil
    }
}
