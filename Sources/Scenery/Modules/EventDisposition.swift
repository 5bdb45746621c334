/// What one level of the event route decides about an event.
///
/// ```swift
/// func handle(_ event: Event) async -> EventDisposition {
///     switch event.name {
///     case "blog.like": await like(event); return .handled      // done here
///     case "user.unfollow": return .pass                          // the scene may confirm; perform(_:) unfollows
///     case "cell.tap": return .transform(event.renamed("blog.open"))
///     default: return .pass
///     }
/// }
/// ```
public enum EventDisposition: Sendable, Hashable {
    /// The level dealt with the event; it goes no further.
    case handled
    /// The event goes on to the next level unchanged.
    case pass
    /// The event goes on as another event (another name or payload).
    case transform(Event)
    /// Ask the host to confirm; if it does, the event goes on, otherwise it stops.
    case confirm(Confirmation)
}
