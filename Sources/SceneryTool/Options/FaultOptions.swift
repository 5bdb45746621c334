import ArgumentParser
import Scenery
import SceneryFaults

/// Faults on purpose, for demos: make a service fail or slow.
struct FaultOptions: ParsableArguments {
    @Option(
        name: .customLong("fail"),
        help: ArgumentHelp(
            FaultOptions.failHelp,
            valueName: "service[:reads|writes]"))
    var failures: [String] = []

    @Option(
        name: .customLong("latency"),
        help: ArgumentHelp(FaultOptions.latencyHelp, valueName: "service=duration"))
    var latencies: [String] = []

    /// The service the help and messages take as their example: this tool's catalog's first.
    private static var exampleService: String? { ModuleCatalog.current.services.first?.rawValue }

    /// The services this tool's catalog names, with an example of the first.
    static var failHelp: String {
        guard let first = exampleService else { return "Make a service fail (this app's catalog names none). Repeatable." }
        let services = ModuleCatalog.current.services.map(\.rawValue).joined(separator: ", ")
        return "Make a service fail: \(services); optionally :reads or :writes (e.g. \(first):writes). Repeatable."
    }

    /// How to slow a service, with this tool's first service as the example.
    static var latencyHelp: String {
        guard let first = exampleService else { return "Slow a service down (this app's catalog names none). Repeatable." }
        return "Slow a service down, e.g. \(first)=300ms or \(first)=1.5s. Repeatable."
    }

    func validate() throws {
        _ = try plan()
    }

    /// The faults asked for.
    func plan() throws -> FaultPlan {
        var rules: [FaultPlan.Rule] = []
        for failure in failures {
            let parts = failure.split(separator: ":", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            let service = try Self.service(parts.first ?? "", option: "--fail \(failure)")
            var operations = Set(OperationKind.allCases)
            if parts.count == 2 {
                switch parts[1] {
                case "reads": operations = [.read]
                case "writes": operations = [.write]
                default:
                    throw ValidationError(
                        "'--fail \(failure)': after ':' write reads or writes, as in --fail blogs:writes; leave out ':' to fail both.")
                }
            }
            rules.append(.fail(service, operations: operations))
        }
        for latency in latencies {
            let parts = latency.split(separator: "=", maxSplits: 1, omittingEmptySubsequences: false).map(String.init)
            guard parts.count == 2 else {
                throw ValidationError("'--latency \(latency)' must have the form service=duration, as in --latency \(Self.exampleService ?? "service")=300ms.")
            }
            let service = try Self.service(parts[0], option: "--latency \(latency)")
            guard let duration = Self.duration(parts[1]) else {
                throw ValidationError(
                    "'--latency \(latency)': \(parts[1].quoted) is not a duration with a unit; write 300ms, 2s or 1.5s (at most 60s).")
            }
            rules.append(.delay(service, by: duration))
        }
        return FaultPlan(rules)
    }

    private static func service(_ name: String, option: String) throws -> ServiceName {
        let names = ModuleCatalog.current.services.map(\.rawValue)
        guard names.contains(name) else {
            let close = Suggestion.closest(to: name, in: names).map { " Did you mean '\($0)'?" } ?? ""
            throw ValidationError("\(option.quoted): unknown service \(name.quoted).\(close) Services: \(names.joined(separator: ", ")).")
        }
        return ServiceName(name)
    }

    /// A duration with its unit (`300ms`, `2s`, `1.5s`), at most a minute. A bare number is
    /// refused: `2` could mean two milliseconds or two seconds.
    static func duration(_ text: String) -> Duration? {
        let lower = text.lowercased()
        let (number, scale): (Substring, Double)
        if lower.hasSuffix("ms") {
            (number, scale) = (lower.dropLast(2), 0.001)
        } else if lower.hasSuffix("s") {
            (number, scale) = (lower.dropLast(), 1)
        } else {
            return nil
        }
        guard let value = Double(number), value.isFinite, value >= 0, value * scale <= 60 else { return nil }
        return .milliseconds(Int((value * scale * 1000).rounded()))
    }
}
