/// An error with a message for the person looking at the page, apart from its detailed one
/// for the operator's log: a store's failure names its host, port, user and database, which
/// no visitor should see.
///
/// The runtime shows ``messageForViewers`` in a module's error block, and modules show it in
/// their notices (``SceneryError/messageForViewers(of:)``); the detailed message goes to the
/// log.
///
/// ```swift
/// struct StoreAway: ViewerFacingError, CustomStringConvertible {
///     var description: String { "PostgreSQL at db.internal:5432 (user app) refused the connection." }
///     var messageForViewers: String { "The data is out of reach for a moment; try again shortly." }
/// }
/// ```
public protocol ViewerFacingError: Error {
    /// What the error says to a person viewing a scene: no host, port, user, path or SQL.
    var messageForViewers: String { get }
}

extension SceneryError {
    /// The message for a person viewing a scene: the error's ``ViewerFacingError/messageForViewers``
    /// when it has one, else ``message(for:)``.
    public static func messageForViewers(of error: any Error) -> String {
        (error as? any ViewerFacingError)?.messageForViewers ?? message(for: error)
    }
}
