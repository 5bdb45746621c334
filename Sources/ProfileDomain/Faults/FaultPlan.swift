/// Which service a fault applies to.
public enum ServiceKind: String, Sendable, Hashable, CaseIterable {
    case profiles, blogs, drafts, relationships
}

/// Reads fetch; writes change data (like, follow, friendship).
public enum OperationKind: String, Sendable, Hashable, CaseIterable {
    case read, write
}

/// Faults to inject into the profile services, for tests and demos.
///
/// ```swift
/// let injector = FaultInjector(FaultPlan([.fail(.blogs, operations: [.write])]))
/// let services = ProfileServices(store).injectingFaults(from: injector)
/// ```
public struct FaultPlan: Sendable, Hashable {
    /// What happens to a matching call.
    public enum Fault: Sendable, Hashable {
        /// The call throws ``ProfileError/injected(_:)`` with this message.
        case failure(String)
        /// The call waits this long first (cancellably), then proceeds.
        case latency(Duration)
    }

    /// A fault and the calls it applies to.
    public struct Rule: Sendable, Hashable {
        public var service: ServiceKind
        public var operations: Set<OperationKind>
        public var fault: Fault

        public init(service: ServiceKind, operations: Set<OperationKind> = Set(OperationKind.allCases), fault: Fault) {
            self.service = service
            self.operations = operations
            self.fault = fault
        }

        /// Calls to `service` fail.
        public static func fail(_ service: ServiceKind, operations: Set<OperationKind> = Set(OperationKind.allCases)) -> Rule {
            Rule(
                service: service, operations: operations,
                fault: .failure("The \(service.rawValue) service is unavailable (injected fault)."))
        }

        /// Calls to `service` take `duration` longer.
        public static func delay(_ service: ServiceKind, by duration: Duration) -> Rule {
            Rule(service: service, fault: .latency(duration))
        }
    }

    /// The rules, applied in order.
    public var rules: [Rule]

    public init(_ rules: [Rule] = []) {
        self.rules = rules
    }

    /// The faults for one call.
    public func faults(for service: ServiceKind, _ operation: OperationKind) -> [Fault] {
        rules.filter { $0.service == service && $0.operations.contains(operation) }.map(\.fault)
    }
}
