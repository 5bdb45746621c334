import Scenery
import ScenerySiteStorePostgres
import Synchronization
import Testing

@testable import ProfileDemoStorePostgres

/// Reads the PostgreSQL store shares between callers asking the same thing at once.
@Suite struct SharedReadsTests {
    /// A read that waits until the test lets it finish, counting how often it ran.
    final class HeldRead: Sendable {
        let runs = Locked(0)
        private let gate = AsyncStream<Void>.makeStream()
        private let started = AsyncStream<Void>.makeStream()

        func read(answer: String) async throws -> String {
            runs.withLock { $0 += 1 }
            started.continuation.yield()
            for await _ in gate.stream { break }
            if answer == "failure" { throw Failure() }
            return answer
        }

        /// Returns once a read has begun.
        func waitUntilStarted() async { for await _ in started.stream { break } }
        func release() { gate.continuation.finish() }
    }

    struct Failure: Error, Equatable {}

    @Test func callersAskingTheSameKeyAtOnceShareOneRead() async throws {
        let reads = SharedReads<String, String>()
        let held = HeldRead()
        let first = Task { try await reads.value(of: "blog 1", at: 1) { try await held.read(answer: "fresh") } }
        await held.waitUntilStarted()
        // Nine more callers while the read runs: none of them starts another.
        let others = (0..<9).map { _ in Task { try await reads.value(of: "blog 1", at: 1) { try await held.read(answer: "second read") } } }
        while reads.callers(of: "blog 1", at: 1) != 10 { await Task.yield() }
        held.release()
        #expect(try await first.value == "fresh")
        for other in others { #expect(try await other.value == "fresh") }
        #expect(held.runs.withLock { $0 } == 1)
        #expect(reads.callers(of: "blog 1", at: 1) == 0, "the key is free once the read ended")
    }

    @Test func aLaterKeyNeverGetsARunningReadOfAnEarlierOne() async throws {
        // The store's keys carry the change feed's mark: a caller who heard of a change asks
        // with a later mark, and gets a read of its own.
        let reads = SharedReads<String, String>()
        let before = HeldRead()
        let stale = Task { try await reads.value(of: "blog 1", at: 0) { try await before.read(answer: "before the like") } }
        await before.waitUntilStarted()
        let after = try await reads.value(of: "blog 1", at: 1) { "after the like" }
        #expect(after == "after the like")
        before.release()
        #expect(try await stale.value == "before the like")
    }

    @Test func anotherQuestionAtTheSameMarkIsAReadOfItsOwn() async throws {
        // The store's questions name the viewer: Bob never gets the signed-out answer.
        let reads = SharedReads<String, String>()
        let signedOut = HeldRead()
        let first = Task { try await reads.value(of: "blog 1 for nobody", at: 3) { try await signedOut.read(answer: "not liked") } }
        await signedOut.waitUntilStarted()
        #expect(try await reads.value(of: "blog 1 for Bob", at: 3) { "liked by Bob" } == "liked by Bob")
        signedOut.release()
        #expect(try await first.value == "not liked")
    }

    @Test func anErrorReachesEveryCallerAndTheNextAskReadsAgain() async throws {
        let reads = SharedReads<String, String>()
        let held = HeldRead()
        let first = Task { try await reads.value(of: "blog", at: 0) { try await held.read(answer: "failure") } }
        await held.waitUntilStarted()
        let second = Task { try await reads.value(of: "blog", at: 0) { "not run" } }
        while reads.callers(of: "blog", at: 0) != 2 { await Task.yield() }
        held.release()
        await #expect(throws: Failure.self) { try await first.value }
        await #expect(throws: Failure.self) { try await second.value }
        #expect(try await reads.value(of: "blog", at: 0) { "read again" } == "read again")
    }

    /// A read that counts how often it ran and answers with that count.
    final class CountedRead: Sendable {
        let runs = Locked(0)
        func read() -> Int {
            runs.withLock { runs in
                runs += 1
                return runs
            }
        }
    }

    @Test func aKeptAnswerIsGivenWithoutReadingUntilTheMarkMoves() async throws {
        // Pages of a fan-out ask one after another: one read per change, not one per page.
        let reads = SharedReads<String, Int>(keeping: 8)
        let counted = CountedRead()
        for _ in 0..<5 { #expect(try await reads.value(of: "blog 1", at: 4) { counted.read() } == 1) }
        #expect(counted.runs.withLock { $0 } == 1)
        // A change: the mark moves, and the next caller reads again.
        #expect(try await reads.value(of: "blog 1", at: 5) { counted.read() } == 2)
        #expect(try await reads.value(of: "blog 1", at: 5) { counted.read() } == 2)
        #expect(counted.runs.withLock { $0 } == 2)
    }

    @Test func noAnswerIsKeptOrGivenWhileTheMarkMayStandStill() async throws {
        // A store that does not listen does not hear other servers' changes: its mark
        // would not move, so every caller reads.
        let reads = SharedReads<String, Int>(keeping: 8)
        let counted = CountedRead()
        #expect(try await reads.value(of: "blog 1", at: 1, keep: false) { counted.read() } == 1)
        #expect(try await reads.value(of: "blog 1", at: 1, keep: false) { counted.read() } == 2)
        #expect(reads.keptAnswers == 0)
        // One kept while listening is not given to a caller that may not have one.
        #expect(try await reads.value(of: "blog 1", at: 1) { counted.read() } == 3)
        #expect(try await reads.value(of: "blog 1", at: 1, keep: false) { counted.read() } == 4)
        #expect(try await reads.value(of: "blog 1", at: 1) { counted.read() } == 3)
    }

    @Test func answersAreKeptForTheLatestMarkOnlyAndUpToTheCapacity() async throws {
        let reads = SharedReads<String, Int>(keeping: 2)
        let counted = CountedRead()
        for question in ["a", "b", "c"] { _ = try await reads.value(of: question, at: 1) { counted.read() } }
        #expect(reads.keptAnswers == 2, "the third answer is past the capacity")
        #expect(try await reads.value(of: "c", at: 1) { counted.read() } == 4, "so it is read again")
        // The first answer at a later mark drops every answer of the earlier one.
        _ = try await reads.value(of: "a", at: 2) { counted.read() }
        #expect(reads.keptAnswers == 1)
        // A read that began at an earlier mark and ends after a later one's is not kept.
        _ = try await reads.value(of: "b", at: 1) { counted.read() }
        #expect(reads.keptAnswers == 1)
    }

    @Test func aFailedReadIsNotKept() async throws {
        let reads = SharedReads<String, String>(keeping: 8)
        await #expect(throws: Failure.self) { try await reads.value(of: "blog", at: 0) { throw Failure() } }
        #expect(reads.keptAnswers == 0)
        #expect(try await reads.value(of: "blog", at: 0) { "read again" } == "read again")
    }

    @Test func aTableMadeWithoutCapacityKeepsNothing() async throws {
        let reads = SharedReads<String, Int>()
        let counted = CountedRead()
        _ = try await reads.value(of: "blog", at: 0) { counted.read() }
        #expect(try await reads.value(of: "blog", at: 0) { counted.read() } == 2)
    }
}
