import Foundation

/// An error of the Scenery runtime: what went wrong and how to fix it.
///
/// ```swift
/// do {
///     let scene = try await registry.assemble("user-profil", for: context, host: host)
/// } catch {
///     print(error)  // No scene 'user-profil' is registered; did you mean 'user-profile'? …
/// }
/// ```
public struct SceneryError: Error, Sendable, Hashable, CustomStringConvertible {
    /// The kind of error, for code that reacts to it.
    ///
    /// A struct, not an enum, so that a new kind in a later version breaks no `switch` of
    /// yours (as swift-nio's `IOError` and swift-argument-parser's `CleanExit`): compare
    /// with `==`, or `switch` with a `default`.
    ///
    /// ```swift
    /// if error.code == .unknownScene { showSceneList() }
    /// ```
    public struct Code: Sendable, Hashable, CustomStringConvertible {
        private enum Kind: String, Sendable, Hashable {
            case unknownScene, invalidScene, invalidArgument, moduleCreationFailed, unreadableFile, notOnPage
        }

        private let kind: Kind

        /// No scene with the id is registered.
        public static let unknownScene = Code(kind: .unknownScene)
        /// The scene file has errors; ``SceneryError/diagnostics`` lists them.
        public static let invalidScene = Code(kind: .invalidScene)
        /// An argument is missing, unknown or has the wrong type.
        public static let invalidArgument = Code(kind: .invalidArgument)
        /// A module could not be created from its parameters.
        public static let moduleCreationFailed = Code(kind: .moduleCreationFailed)
        /// A scene file or directory could not be read.
        public static let unreadableFile = Code(kind: .unreadableFile)
        /// A host reported a node the page does not show (or does not count): see
        /// ``SceneInstance/reportVisibility(of:fraction:at:)``.
        public static let notOnPage = Code(kind: .notOnPage)

        /// The kind's name: `unknownScene`, `invalidScene`, …
        public var description: String { kind.rawValue }
    }

    /// The kind of error.
    public var code: Code
    /// What went wrong and how to fix it.
    public var message: String
    /// The scene-file problems behind an ``Code/invalidScene`` error.
    public var diagnostics: [Diagnostic]
    /// For an ``Code/invalidArgument`` error about a scene argument that was not given: its
    /// name, so that a host can say how to give it in its own terms (a web page's address,
    /// a command's `--arg`).
    public var missingArgument: String?

    /// Creates an error.
    public init(_ code: Code, _ message: String, diagnostics: [Diagnostic] = [], missingArgument: String? = nil) {
        self.code = code
        self.message = message
        self.diagnostics = diagnostics
        self.missingArgument = missingArgument
    }

    public var description: String {
        ([message] + diagnostics.map(\.description)).joined(separator: "\n")
    }

    /// The sentence Scenery shows a person for any error: a `LocalizedError`'s
    /// description, or the error's own description.
    public static func message(for error: any Error) -> String {
        if let localized = error as? any LocalizedError, let description = localized.errorDescription {
            return description
        }
        return String(describing: error)
    }
}
