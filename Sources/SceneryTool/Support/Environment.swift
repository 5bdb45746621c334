#if canImport(Glibc)
    import Glibc
#elseif canImport(Darwin)
    import Darwin
#endif

/// Environment variables, read one at a time (`ProcessInfo.environment` copies them all
/// into a dictionary, which a short command run pays for at every start).
package enum Environment {
    /// The variable's value, or `nil` when it is unset or empty.
    package static func value(_ name: String) -> String? {
        guard let pointer = getenv(name) else { return nil }
        let value = String(cString: pointer)
        return value.isEmpty ? nil : value
    }
}
