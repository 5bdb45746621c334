import Foundation

/// What went wrong in a data service or a store, in words a person can act on, with a kind
/// a program can act on: the errors of any app's services and of Scenery's stores (the
/// profile demo calls it `ProfileError`).
///
/// A struct, not an enum, so that a kind added later (a store on another engine has
/// failures SQLite does not) breaks no `switch` in code that uses it: compare ``kind`` with
/// `==`, or `switch` over it with a `default`.
///
/// ```swift
/// do {
///     try await tasks.setDone(true, task: 7)
/// } catch let error as DataError where error.kind == .conflict {
///     // another writer held the data: try again
/// }
/// ```
public struct DataError: Error, Sendable, Hashable, LocalizedError, ViewerFacingError {
    /// What kind of failure it is.
    public struct Kind: Sendable, Hashable, CustomStringConvertible {
        private enum Value: String, Sendable, Hashable {
            case notFound, notPermitted, conflict, connectionLost, storage, invalidData, alreadyApplied, outdated
        }

        private let value: Value

        /// Nothing has the id (a user, a blog, a task): asking again will not help.
        public static let notFound = Kind(value: .notFound)
        /// The viewer may not do or see this.
        public static let notPermitted = Kind(value: .notPermitted)
        /// Another writer held the data (a lock, a serialization failure): the same request
        /// may succeed if tried again.
        public static let conflict = Kind(value: .conflict)
        /// The connection to the database was lost; trying again once it is back may help.
        public static let connectionLost = Kind(value: .connectionLost)
        /// The store failed otherwise (a read-only file, a full disk, a schema it does not know).
        public static let storage = Kind(value: .storage)
        /// Imported data is unusable; ``DataError/problems`` names each problem.
        public static let invalidData = Kind(value: .invalidData)
        /// The write belongs to an action whose write was applied already (its page sent it
        /// again, to this server or another): nothing was written again, and what the
        /// action meant to write is there.
        public static let alreadyApplied = Kind(value: .alreadyApplied)
        /// The write was based on a version of the data that is no longer the stored one
        /// (another tab or person saved it meanwhile): nothing was written, and trying the
        /// same write again will not help; show the person the newer version first.
        public static let outdated = Kind(value: .outdated)

        /// The kind's name: `notFound`, `conflict`, …
        public var description: String { value.rawValue }
    }

    /// What kind of failure it is.
    public var kind: Kind
    /// What went wrong and what to do, for people.
    public var message: String
    /// For ``Kind/invalidData``: each problem with its JSON path.
    public var problems: [DataProblem] = []
    /// What a person viewing a page is told, when it must differ from ``message`` (which
    /// may name a database's host, port, user or path): set by a store whose messages do.
    public var plainMessage: String?

    /// What a person viewing a page is told: ``plainMessage``, else ``message``.
    public var messageForViewers: String { plainMessage ?? message }

    /// The error with a message for people viewing pages that names nothing of the store.
    public func withPlainMessage(_ text: String) -> DataError {
        var error = self
        error.plainMessage = text
        return error
    }

    /// Creates an error of a kind with its message.
    public init(_ kind: Kind, _ message: String, problems: [DataProblem] = []) {
        self.kind = kind
        self.message = message
        self.problems = problems
    }

    /// The viewer may not do or see this; the message says what.
    public static func notPermitted(_ message: String) -> DataError {
        DataError(.notPermitted, message)
    }

    /// The store failed; the message says how.
    public static func storage(_ message: String) -> DataError {
        DataError(.storage, storagePrefix + message)
    }

    /// What ``storage(_:)`` puts before a message.
    private static let storagePrefix = "The database failed: "

    /// The message without what ``storage(_:)`` put before it: for a message that quotes it
    /// after words of its own.
    package var messageAfterStoragePrefix: String {
        message.hasPrefix(Self.storagePrefix) ? String(message.dropFirst(Self.storagePrefix.count)) : message
    }

    /// The write of `key` was applied already: this one was rolled back whole.
    public static func alreadyApplied(_ key: ActionKey) -> DataError {
        DataError(.alreadyApplied, "The action \(key) was applied already (its page sent it again); nothing was written again.")
            .withPlainMessage("That was done already.")
    }

    /// Another writer held the data; the message says what was not done.
    public static func conflict(_ message: String) -> DataError {
        DataError(.conflict, message)
    }

    /// The write was based on an older version than the stored one; the message says what
    /// changed and what to do.
    ///
    /// ```swift
    /// guard stored.version == edit.version else {
    ///     throw DataError.outdated("Draft 7 was saved elsewhere since it was opened; open it again to see that version.")
    /// }
    /// ```
    public static func outdated(_ message: String) -> DataError {
        DataError(.outdated, message)
    }

    /// Imported data is unusable; nothing was imported.
    public static func invalidData(_ problems: [DataProblem]) -> DataError {
        let message =
            problems.count == 1
            ? "The data is invalid: \(problems[0]); nothing was imported."
            : "The data has \(problems.count) problems; nothing was imported:\n" + problems.map { "  - \($0)" }.joined(separator: "\n")
        return DataError(.invalidData, message, problems: problems)
    }

    /// Whether the error says what was asked for does not exist: asking again will not help.
    public var isNotFound: Bool { kind == .notFound }

    public var errorDescription: String? { message }
}
