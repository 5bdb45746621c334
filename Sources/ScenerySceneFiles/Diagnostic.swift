/// One problem found in a scene file, printed the way compilers print them.
///
/// ```swift
/// let diagnostics = registry.loadScenes(in: scenesDirectory)
/// for diagnostic in diagnostics { print(diagnostic) }
/// // Scenes/user-profile.json:12:17: error: unknown module type 'BlogModul' at modules[1].type; did you mean 'BlogModule'?
/// ```
///
/// The description has the form `file:line:column: severity: message`, so editors and
/// CI logs can jump to the place. ``path`` is the JSON path of the offending value.
public struct Diagnostic: Sendable, Hashable, CustomStringConvertible {
    /// How serious a problem is.
    public enum Severity: String, Sendable, Hashable, Comparable {
        /// The scene cannot be used until this is fixed.
        case error
        /// The scene works, but probably not as intended.
        case warning

        public static func < (lhs: Severity, rhs: Severity) -> Bool {
            lhs == .warning && rhs == .error
        }
    }

    /// How serious the problem is.
    public var severity: Severity
    /// What is wrong and how to fix it, as a sentence.
    public var message: String
    /// The file the problem is in, as given to the loader.
    public var file: String
    /// Where in the file, if known.
    public var location: SourcePosition?
    /// The JSON path of the offending value, such as `modules[1].type`; empty for the whole file.
    public var path: String

    /// Creates a diagnostic.
    public init(
        _ severity: Severity, _ message: String, file: String, location: SourcePosition?, path: String = ""
    ) {
        self.severity = severity
        self.message = message
        self.file = file
        self.location = location
        self.path = path
    }

    public var description: String {
        let place = location.map { "\(file):\($0.line):\($0.column)" } ?? file
        let at = path.isEmpty ? "" : " (at \(path))"
        return "\(place): \(severity.rawValue): \(message)\(at)"
    }
}

extension Sequence<Diagnostic> {
    /// Whether any of the diagnostics is an error.
    public var containsErrors: Bool { contains { $0.severity == .error } }
}
