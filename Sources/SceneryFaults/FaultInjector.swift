import Scenery

/// Holds a ``FaultPlan`` that may change while services run (a test makes a service fail,
/// then recover), and applies it to calls.
///
/// A service takes faults through a wrapper of its protocol that calls ``apply(_:_:)``
/// first, for any protocol:
///
/// ```swift
/// struct FaultyRecycleBin: RecycleBinService {
///     let base: any RecycleBinService
///     let injector: FaultInjector
///
///     func deletedBlogs(of owner: UserID) async throws -> [DeletedBlog] {
///         try await injector.apply(.recycleBin, .read)
///         return try await base.deletedBlogs(of: owner)
///     }
/// }
/// ```
public final class FaultInjector: Sendable {
    private let plan: Locked<FaultPlan>

    public init(_ plan: FaultPlan = FaultPlan()) {
        self.plan = Locked(plan)
    }

    /// The plan in force.
    public var currentPlan: FaultPlan {
        get { plan.withLock { $0 } }
        set { plan.withLock { $0 = newValue } }
    }

    /// Applies the faults for one call: waits for latencies, throws for failures.
    /// - Throws: ``InjectedFault``, or `CancellationError` while waiting.
    public func apply(_ service: ServiceName, _ operation: OperationKind) async throws {
        for fault in plan.withLock({ $0.faults(for: service, operation) }) {
            switch fault {
            case .latency(let duration): try await Task.sleep(for: duration)
            case .failure(let message): throw InjectedFault(service: service, message: message)
            }
        }
    }
}
