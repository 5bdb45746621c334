/// Faults to inject into services, for tests and demos: make a named service fail or slow
/// down, for reads, writes or both.
///
/// ```swift
/// let injector = FaultInjector(FaultPlan([.fail("blogs", operations: [.write]), .delay("bin", by: .seconds(2))]))
/// let services = ProfileServices(store).injectingFaults(from: injector)   // ProfileDemo
/// ```
public struct FaultPlan: Sendable, Hashable {
    /// What happens to a matching call.
    public enum Fault: Sendable, Hashable {
        /// The call throws ``InjectedFault`` with this message.
        case failure(String)
        /// The call waits this long first (cancellably), then proceeds.
        case latency(Duration)
    }

    /// A fault and the calls it applies to.
    public struct Rule: Sendable, Hashable {
        public var service: ServiceName
        public var operations: Set<OperationKind>
        public var fault: Fault

        public init(service: ServiceName, operations: Set<OperationKind> = Set(OperationKind.allCases), fault: Fault) {
            self.service = service
            self.operations = operations
            self.fault = fault
        }

        /// Calls to `service` fail.
        public static func fail(_ service: ServiceName, operations: Set<OperationKind> = Set(OperationKind.allCases)) -> Rule {
            Rule(
                service: service, operations: operations,
                fault: .failure("The \(service.rawValue) service is unavailable (injected fault)."))
        }

        /// Calls to `service` take `duration` longer.
        public static func delay(_ service: ServiceName, by duration: Duration) -> Rule {
            Rule(service: service, fault: .latency(duration))
        }
    }

    /// The rules, applied in order.
    public var rules: [Rule]

    public init(_ rules: [Rule] = []) {
        self.rules = rules
    }

    /// The faults for one call.
    public func faults(for service: ServiceName, _ operation: OperationKind) -> [Fault] {
        rules.filter { $0.service == service && $0.operations.contains(operation) }.map(\.fault)
    }
}
