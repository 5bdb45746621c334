import Dispatch
import Scenery
import Synchronization

/// A page whose executor counts what crosses onto it: for a test or a bench that holds how
/// many times a path hops onto its page (a tap from the socket, a store's answer).
///
/// A crossing is a job that comes onto the page from elsewhere; work the page gives itself
/// (a continuation it resumes, a task it starts) is not one.
///
/// ```swift
/// let counter = CrossingCounter()
/// let scene = try await registry.assemble("likes", for: context, host: host, on: counter.page)
/// let before = counter.crossingsIn
/// await scene.send(like)
/// #expect(counter.crossingsIn - before == 2)  // onto the page, and back from the store
/// ```
public final class CrossingCounter: Sendable {
    /// The page to assemble a scene on.
    public let page: PageIsolation
    private let executor: CountingExecutor

    /// A page of its own, counting from zero.
    public init() {
        executor = CountingExecutor()
        page = PageIsolation(sharing: CountingActor(executor: executor))
    }

    /// How many jobs came onto the page from elsewhere so far.
    public var crossingsIn: Int { executor.arrivals.load(ordering: .relaxed) }
}

/// A serial executor on a Dispatch queue that counts the jobs enqueued from off the queue.
private final class CountingExecutor: SerialExecutor, Sendable {
    private let queue = DispatchQueue(label: "scenery.counted-page")
    private let key = DispatchSpecificKey<Void>()
    let arrivals = Atomic<Int>(0)

    init() { queue.setSpecific(key: key, value: ()) }

    func enqueue(_ job: consuming ExecutorJob) {
        if DispatchQueue.getSpecific(key: key) == nil { arrivals.add(1, ordering: .relaxed) }
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    func checkIsolated() { dispatchPrecondition(condition: .onQueue(queue)) }
}

/// The actor whose executor the counted page shares.
private actor CountingActor {
    let executor: CountingExecutor
    init(executor: CountingExecutor) { self.executor = executor }
    nonisolated var unownedExecutor: UnownedSerialExecutor { executor.asUnownedSerialExecutor() }
}
