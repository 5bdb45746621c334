import Scenery

/// The events of the owner's draft editor (`DraftModule`), as values: the names scene files
/// use, and payloads the compiler checks.
///
/// `draft.save` is the editor's form: its payload names the draft and version (none for a
/// new draft) and the form's fields add the title and body, so the module reads a
/// ``DraftEdit``. The others are the buttons of a draft's row.
///
/// ```json
/// { "on": "draft.delete",
///   "confirm": { "title": "Delete “$event.title”?", "confirm": "Delete", "cancel": "Keep" } }
/// ```
public enum DraftEvents {
    /// What a draft row's buttons carry: the draft, the version shown, and its title for
    /// the scene's question.
    public struct Target: Codable, Sendable, Hashable {
        public var draft: Int64
        public var version: Int
        public var title: String

        public init(draft: Int64, version: Int, title: String) {
            self.draft = draft
            self.version = version
            self.title = title
        }
    }

    /// Save what was typed: a new draft, or a newer text of one.
    public static let save = EventKind("draft.save", payload: DraftEdit.self)
    /// Open a draft in the editor (stays on the owner's page).
    public static let edit = EventKind("draft.edit", payload: Target.self)
    /// Close the editor without saving (stays on the owner's page).
    public static let cancel = EventKind("draft.cancel", payload: Target.self)
    /// Publish the draft as a blog; it then reaches every page showing the owner's blogs.
    public static let publish = EventKind("draft.publish", payload: Target.self)
    /// Delete the draft; the bundled scenes ask first.
    public static let delete = EventKind("draft.delete", payload: Target.self)
}
