import Dispatch
import Scenery

/// A page whose executor counts what crosses onto it, and named domains around it (a
/// socket's event loop, a store) whose crossings it records in order: for a test or a bench
/// that holds how many times a path hops, and prints the path.
///
/// A crossing is a job that comes onto a domain from elsewhere; work a domain gives itself
/// (a continuation it resumes, a task it starts) is not one. A crossing from a thread that
/// belongs to no named domain (Swift's pool, for instance) comes from ``Crossing/elsewhere``.
///
/// ```swift
/// let counter = CrossingCounter()
/// let scene = try await registry.assemble("likes", for: context, host: host, on: counter.page)
/// let before = counter.crossingsIn
/// await scene.send(like)
/// #expect(counter.crossingsIn - before == 2)  // onto the page, and back from the store
/// ```
///
/// To see the whole path, give the parts around the page domains of their own: an actor
/// adopts one with `nonisolated var unownedExecutor { domain.unownedExecutor }`, and other
/// code hands work over with ``CrossingDomain/run(_:)``.
///
/// ```swift
/// let store = counter.domain(named: "store")
/// // … a like, from a socket domain to its patch written back to it …
/// print(counter.path.map(\.description))  // ["socket → page", "page → store", …]
/// ```
public final class CrossingCounter: Sendable {
    /// The page to assemble a scene on.
    public let page: PageIsolation
    private let pageDomain: CrossingDomain
    private let trace: CrossingTrace

    /// A page of its own, counting from zero.
    public init() {
        trace = CrossingTrace()
        pageDomain = CrossingDomain(name: "page", trace: trace)
        page = PageIsolation(sharing: DomainActor(domain: pageDomain))
    }

    /// How many jobs came onto the page from elsewhere so far.
    public var crossingsIn: Int { trace.crossings.withLock { $0.count { $0.to == "page" } } }

    /// Every crossing onto the page and onto the counter's other domains so far, in order.
    public var path: [Crossing] { trace.crossings.withLock { $0 } }

    /// A domain of its own, whose crossings the counter records with the page's.
    ///
    /// - Parameter name: How the path names it; `"page"` is the page's, and
    ///   ``Crossing/elsewhere`` names every thread of no domain.
    public func domain(named name: String) -> CrossingDomain {
        precondition(name != "page" && name != Crossing.elsewhere, "'\(name)' is the counter's own name for a domain; choose another")
        return CrossingDomain(name: name, trace: trace)
    }
}

/// One hop of a path between two domains of a ``CrossingCounter``.
public struct Crossing: Sendable, Hashable, CustomStringConvertible {
    /// The name of a thread that belongs to no named domain (Swift's pool, for instance).
    public static let elsewhere = "elsewhere"

    /// The domain the work came from, or ``elsewhere``.
    public var from: String
    /// The domain it came onto.
    public var to: String

    /// A crossing from one domain onto another.
    public init(from: String, to: String) {
        self.from = from
        self.to = to
    }

    /// `from → to`.
    public var description: String { "\(from) → \(to)" }
}

/// A serial executor of a ``CrossingCounter`` that records each job coming onto it from
/// elsewhere: a socket's event loop, a store's connection, the page.
public final class CrossingDomain: SerialExecutor, Sendable {
    /// How the counter's path names it.
    public let name: String
    private let queue: DispatchQueue
    private let trace: CrossingTrace

    fileprivate init(name: String, trace: CrossingTrace) {
        self.name = name
        self.trace = trace
        queue = DispatchQueue(label: "scenery.crossings.\(name)")
        queue.setSpecific(key: trace.key, value: name)
    }

    /// The executor an actor of this domain returns from its `unownedExecutor`.
    public var unownedExecutor: UnownedSerialExecutor { asUnownedSerialExecutor() }

    /// Runs `work` on the domain, as an event loop runs what is handed to it: a crossing
    /// unless it is handed over from the domain itself.
    public func run(_ work: @escaping @Sendable () -> Void) {
        arrive()
        queue.async(execute: work)
    }

    /// Runs a job of an actor of the domain.
    public func enqueue(_ job: consuming ExecutorJob) {
        arrive()
        let job = UnownedJob(job)
        queue.async { job.runSynchronously(on: self.asUnownedSerialExecutor()) }
    }

    /// Stops the process unless the caller runs on the domain.
    public func checkIsolated() { dispatchPrecondition(condition: .onQueue(queue)) }

    private func arrive() {
        let from = DispatchQueue.getSpecific(key: trace.key) ?? Crossing.elsewhere
        guard from != name else { return }
        trace.crossings.withLock { $0.append(Crossing(from: from, to: name)) }
    }
}

/// The crossings of one counter's domains, and the key that tells a domain's threads apart.
///
/// Behind an `NSLock` (`Locked`), not Synchronization's `Mutex`: the thread sanitizer sees a
/// pthread lock's ordering, and did not see the `Mutex`'s on Linux (it reported the appends of
/// two domains' threads as a race, in CI).
private final class CrossingTrace: Sendable {
    let crossings = Locked<[Crossing]>([])
    let key = DispatchSpecificKey<String>()
}

/// The actor whose executor the counted page shares.
private actor DomainActor {
    let domain: CrossingDomain
    init(domain: CrossingDomain) { self.domain = domain }
    nonisolated var unownedExecutor: UnownedSerialExecutor { domain.asUnownedSerialExecutor() }
}
