import Scenery

/// The line a module shows under its content: why an action failed, or that what it shows
/// may be out of date (a live change could not be fetched).
///
/// The two differ in how they go: a stale notice goes as soon as a fetch succeeds
/// (``clearStale()``); a notice about a failed action stays until the next action.
///
/// ```swift
/// private var noticeLine = ModuleNotice()
/// public var notice: String? { noticeLine.text }
///
/// do { fresh = try await tasks.task(id, viewer: viewer) } catch {
///     noticeLine.showStale(error)
///     live.retry(.task(id))
/// }
/// ```
public struct ModuleNotice: Sendable, Hashable {
    /// The text shown, if any.
    public private(set) var text: String?
    /// Whether the text says only that what is shown may be out of date.
    public private(set) var isStale = false

    /// No notice.
    public init() {}

    /// Shows the outcome of an action: a message, or none.
    public mutating func show(_ text: String?) {
        self.text = text
        isStale = false
    }

    /// Says that what is shown may be out of date, and why (``staleText(for:)``).
    public mutating func showStale(_ error: any Error) {
        text = Self.staleText(for: error)
        isStale = true
    }

    /// Takes what fetching a live change came to: a failure shows the stale notice and has
    /// `live` try `change` again; a success removes a stale notice. Returns the value
    /// fetched (`nil` after a failure) and whether the line changed, so that the module
    /// renders it.
    ///
    /// ```swift
    /// let fetched = await Result { try await tasks.task(id, viewer: viewer) }
    /// let (fresh, noticeChanged) = noticeLine.settle(fetched, retrying: .task(id), with: live)
    /// ```
    public mutating func settle<Value, Entity>(
        _ fetched: Result<Value, any Error>, retrying change: Entity, with live: LiveChanges<Entity>
    ) -> (value: Value?, noticeChanged: Bool) {
        switch fetched {
        case .success(let value):
            return (value, clearStale())
        case .failure(let error):
            showStale(error)
            live.retry(change)
            return (nil, true)
        }
    }

    /// What a module shows when it could not fetch what changed: what it shows may be out
    /// of date, why (in words for viewers), and that it tries again
    /// (``LiveChanges/retry(_:)``).
    public static func staleText(for error: any Error) -> String {
        "Couldn't show the latest: \(SceneryError.messageForViewers(of: error)) Trying again."
    }

    /// Removes a stale notice (a fetch succeeded); `true` if there was one, so that the
    /// module renders the line away.
    @discardableResult
    public mutating func clearStale() -> Bool {
        guard isStale else { return false }
        (text, isStale) = (nil, false)
        return true
    }
}
