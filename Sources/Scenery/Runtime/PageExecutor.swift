import Foundation
import Synchronization

/// The one serial executor a page runs on: its scene, its modules and the host's session
/// share it, so a call between them is a plain call on the same executor, not a hop.
///
/// Actors that name the same executor are isolated together: only one of them runs at a
/// time, and a call from one to another runs at once, in line, when the caller is on the
/// page already. They still interleave at each `await` that leaves the page (a store's I/O, a
/// confirmation), exactly as one actor does. The executor runs its jobs in turns on Swift's
/// shared thread pool: a page holds no thread of its own, a turn gives the
/// thread back after a few dozen jobs, and a turn keeps the priority of the highest job
/// waiting, so a page's work never waits behind a low-priority turn.
///
/// ``SceneRegistry/assemble(_:for:host:on:)`` makes a scene on one; each module gets it
/// through its ``ModuleContext`` and runs on it by naming it:
///
/// ```swift
/// actor GreetingModule: Module {
///     private let context: ModuleContext
///     nonisolated var unownedExecutor: UnownedSerialExecutor { context.unownedExecutor }
///     // …
/// }
/// ```
///
/// A module that does not name it is an actor of its own, as before: correct, one hop
/// further from its page. Work that burns CPU for long does not belong on a page; run it
/// off the page (`@concurrent` or a detached task) and await its result.
public final class PageExecutor: SerialExecutor, Sendable {
    private let turns = Mutex(PageTurns<UnownedJob>())
    private let arrivals = Atomic<Int>(0)
    private let jobs = Atomic<Int>(0)

    /// How many jobs one turn on a pool thread runs before it gives the thread back (the
    /// page's next jobs wait for a new turn, behind other pages' work).
    static let jobsPerTurn = 32

    /// A new executor for one page.
    public init() {}

    /// Whether the caller runs on this executor now.
    public var isCurrent: Bool {
        let thread = Self.currentThread
        return turns.withLock { $0.drainingThread == thread }
    }

    /// How many times work came onto the page from elsewhere (the network, a store's I/O, a
    /// timer, another page): each is one crossing into the page. Work the page gives itself
    /// (a task it starts, a continuation it resumes) is not counted. For measuring paths.
    public var crossingsIn: Int { arrivals.load(ordering: .relaxed) }

    /// How many jobs ran on the page in all, crossings included.
    public var jobsRun: Int { jobs.load(ordering: .relaxed) }

    public func enqueue(_ job: consuming ExecutorJob) {
        let thread = Self.currentThread
        let priority = job.priority.rawValue
        let unowned = UnownedJob(job)
        let (fromElsewhere, askedTurn) = turns.withLock { turns in
            (turns.drainingThread != thread, turns.append(unowned, priority: priority))
        }
        if fromElsewhere { arrivals.add(1, ordering: .relaxed) }
        if let askedTurn { askForTurn(at: askedTurn) }
    }

    public func checkIsolated() {
        precondition(isCurrent, "Expected to run on the page's executor.")
    }

    /// Asks Swift's shared pool for a turn (at `priority`) to run the page's queued jobs.
    private func askForTurn(at priority: UInt8) {
        Task.detached(priority: TaskPriority(rawValue: priority)) { self.takeTurn() }
    }

    /// Runs up to ``jobsPerTurn`` queued jobs in order on this thread, then gives the thread
    /// back, asking for another turn if jobs are left.
    private func takeTurn() {
        let thread = Self.currentThread
        guard turns.withLock({ $0.startTurn(on: thread) }) else { return }
        let executor = asUnownedSerialExecutor()
        for _ in 0..<Self.jobsPerTurn {
            guard let job = turns.withLock({ $0.nextJob() }) else { break }
            jobs.add(1, ordering: .relaxed)
            job.runSynchronously(on: executor)
        }
        if let priority = turns.withLock({ $0.endTurn() }) { askForTurn(at: priority) }
    }

    /// The calling thread, as a number.
    private static var currentThread: UInt {
        #if canImport(Darwin)
            UInt(bitPattern: pthread_self())
        #else
            UInt(pthread_self())
        #endif
    }
}
