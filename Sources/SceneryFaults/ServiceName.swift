import Foundation

/// The name of a service a module calls, for faults injected on purpose (``FaultPlan``).
///
/// Any service protocol can take faults: give it a name and have its fault-injecting
/// wrapper call ``FaultInjector/apply(_:_:)`` before each call.
///
/// ```swift
/// extension ServiceName {
///     static let recycleBin: ServiceName = "bin"
/// }
/// ```
public struct ServiceName: RawRepresentable, Hashable, Sendable, Comparable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The name, as typed after `--fail` and `--latency` (`blogs`, `bin`).
    public var rawValue: String

    public init(rawValue: String) {
        self.rawValue = rawValue
    }

    public init(_ name: String) {
        self.rawValue = name
    }

    public init(stringLiteral value: String) {
        self.rawValue = value
    }

    public var description: String { rawValue }

    public static func < (lhs: ServiceName, rhs: ServiceName) -> Bool { lhs.rawValue < rhs.rawValue }
}

/// Reads fetch; writes change data (like, follow, restore).
public enum OperationKind: String, Sendable, Hashable, CaseIterable {
    case read, write
}

/// The error a service call throws when a ``FaultPlan`` makes it fail: transient, so the
/// module's error block offers a retry.
public struct InjectedFault: Error, Sendable, Hashable, LocalizedError, CustomStringConvertible {
    /// The service that failed.
    public var service: ServiceName
    /// What the person is told.
    public var message: String

    public init(service: ServiceName, message: String) {
        self.service = service
        self.message = message
    }

    public var errorDescription: String? { message }
    public var description: String { message }
}
