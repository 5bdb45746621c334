import Foundation
import Testing

@testable import Scenery

/// The package's one lock: a value and its mutex in one allocation, shared by its copies.
@Suite struct LockedTests {
    @Test func copiesShareTheValueAndTheLock() {
        let counter = Locked(0)
        let copy = counter
        copy.withLock { $0 += 2 }
        counter.withLock { $0 += 1 }
        #expect(counter.withLock { $0 } == 3)
    }

    @Test func aLockHeldElsewhereIsNotWaitedFor() async {
        let value = Locked("free")
        let (holding, held) = AsyncStream.makeStream(of: Void.self)
        let release = DispatchSemaphore(value: 0)
        let (released, done) = AsyncStream.makeStream(of: Void.self)
        Thread.detachNewThread {
            value.withLock { _ in
                held.finish()
                release.wait()
            }
            done.finish()
        }
        for await _ in holding {}
        #expect(value.withLockIfAvailable { $0 } == nil, "held by the other thread: no wait, no value")
        release.signal()
        for await _ in released {}
        #expect(value.withLockIfAvailable { $0 } == "free")
    }

    @Test func theValueGoesWithTheLastCopy() {
        let gone = Locked(false)
        do {
            let kept = Locked(Canary { gone.withLock { $0 = true } })
            let copy = kept
            _ = copy.withLock { $0 }
            #expect(!gone.withLock { $0 })
        }
        #expect(gone.withLock { $0 }, "destroyed once, with the lock")
    }

    private final class Canary: Sendable {
        let onDeinit: @Sendable () -> Void
        init(_ onDeinit: @escaping @Sendable () -> Void) { self.onDeinit = onDeinit }
        deinit { onDeinit() }
    }
}
