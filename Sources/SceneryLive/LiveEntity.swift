/// Something an app's data changes, named by the app: the key that a store announces after
/// a write and that a module follows while it shows it.
///
/// An app declares its entities as its own type, usually an enum of ids, and names one
/// value ``everything``: "anything may have changed" (an import, or a feed that fell
/// behind). A change is an entity and its id, never the data: what a viewer sees of it is
/// shaped per viewer, so each module fetches its own.
///
/// ```swift
/// enum BoardChange: LiveEntity {
///     case task(Int64)
///     case comments(on: Int64)
///     case everything
///
///     var description: String {
///         switch self {
///         case .task(let id): "task \(id)"
///         case .comments(let id): "task \(id)'s comments"
///         case .everything: "everything"
///         }
///     }
/// }
/// ```
public protocol LiveEntity: Hashable, Sendable, CustomStringConvertible {
    /// Anything may have changed: every subscriber fetches what it shows again, whatever
    /// it follows.
    static var everything: Self { get }
}
