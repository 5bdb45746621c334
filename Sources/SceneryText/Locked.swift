#if canImport(Glibc)
    import Glibc
#elseif canImport(Musl)
    import Musl
#elseif canImport(Darwin)
    import Darwin
#endif

/// A value behind a lock the thread sanitizer sees: a pthread mutex, kept in the same
/// allocation as the value.
///
/// The package's one lock type: every value that several threads or tasks share outside an
/// actor sits in a `Locked` (counters alone use `Atomic`), so no site chooses a lock by
/// judgement. The reason it is not `Synchronization.Mutex`: on Linux a contended `Mutex`
/// is handed to its next owner inside the kernel (a priority-inheriting futex), where the
/// sanitizer cannot see it, so state many tasks reach at once is reported as raced when it
/// is not, and CI runs the tests under the sanitizer. The reason it is not `NSLock`: on
/// Linux an `NSLock` is an object and three buffers of its own (its mutex, and a condition
/// and a mutex for timed waits), and an open page keeps a dozen locks.
///
/// A copy shares the value and the lock, as a reference does.
package struct Locked<Value>: @unchecked Sendable {
    private let buffer: LockedBuffer<Value>

    package init(_ value: Value) {
        buffer = LockedBuffer.make(value)
    }

    /// Runs `body` with the value, holding the lock.
    package func withLock<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result {
        try buffer.withUnsafeMutablePointers { value, mutex in
            pthread_mutex_lock(mutex)
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }

    /// Runs `body` with the value if no one holds the lock, or returns `nil` at once
    /// without waiting for it.
    package func withLockIfAvailable<Result>(_ body: (inout Value) throws -> Result) rethrows -> Result? {
        try buffer.withUnsafeMutablePointers { value, mutex in
            guard pthread_mutex_trylock(mutex) == 0 else { return nil }
            defer { pthread_mutex_unlock(mutex) }
            return try body(&value.pointee)
        }
    }
}

/// The value (the buffer's header) and its mutex (the buffer's one element), in one object.
private final class LockedBuffer<Value>: ManagedBuffer<Value, pthread_mutex_t> {
    static func make(_ value: Value) -> LockedBuffer<Value> {
        let buffer = create(minimumCapacity: 1) { _ in value }
        buffer.withUnsafeMutablePointerToElements { mutex in
            mutex.initialize(to: pthread_mutex_t())
            let status = pthread_mutex_init(mutex, nil)
            precondition(status == 0, "pthread_mutex_init failed: \(status)")
        }
        // `create` makes an instance of the class it is called on.
        return unsafeDowncast(buffer, to: LockedBuffer<Value>.self)
    }

    // The value is the buffer's stored header, which Swift destroys with it; the mutex is
    // the buffer's own to destroy.
    deinit {
        withUnsafeMutablePointerToElements { mutex in
            pthread_mutex_destroy(mutex)
            mutex.deinitialize(count: 1)
        }
    }
}
