import Foundation

/// A value behind a lock the thread sanitizer sees: a pthread mutex (through `NSLock`).
///
/// `Synchronization.Mutex` on Linux hands a contended lock to its next owner inside the
/// kernel (a priority-inheriting futex), where the sanitizer cannot see it, so state that
/// many tasks reach at once behind a `Mutex` is reported as raced when it is not. State
/// that is contended by design (a change feed's subscribers, a test's journal) uses this.
package final class Locked<Value>: @unchecked Sendable {
    private let lock = NSLock()
    private var value: Value

    package init(_ value: Value) {
        self.value = value
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        lock.lock()
        defer { lock.unlock() }
        return try body(&value)
    }
}
