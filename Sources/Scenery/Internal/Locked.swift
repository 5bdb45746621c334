import Foundation

/// A value behind a lock the thread sanitizer sees: a pthread mutex (through `NSLock`).
///
/// The package's one lock type: every value that several threads or tasks share outside an
/// actor sits in a `Locked` (counters alone use `Atomic`), so no site chooses a lock by
/// judgement. The reason it is not `Synchronization.Mutex`: on Linux a contended `Mutex`
/// is handed to its next owner inside the kernel (a priority-inheriting futex), where the
/// sanitizer cannot see it, so state many tasks reach at once is reported as raced when it
/// is not, and CI runs the tests under the sanitizer.
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

    /// Runs `body` with the value if no one holds the lock, or returns `nil` at once
    /// without waiting for it.
    package func withLockIfAvailable<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result? {
        guard lock.try() else { return nil }
        defer { lock.unlock() }
        return try body(&value)
    }
}
