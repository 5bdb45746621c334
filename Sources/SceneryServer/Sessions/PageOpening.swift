import Scenery
import SceneryPageProtocol

/// What a page was opened for, fixed for its life: who looks at which scene with which
/// arguments, in which language and format, and from where.
///
/// ```swift
/// let opening = PageOpening(viewer: "2", sceneID: "user-profile", arguments: ["user": "1"])
/// registry.instantiate(opening.sceneID, for: opening.context, host: host, on: page)
/// ```
struct PageOpening: Sendable {
    /// What the page's client reads: HTML and DOM operations (the page script), or the
    /// view tree and its patches (a native or terminal client, `/api/scenes/ID`), with the
    /// node kinds it named: it is sent no other kind.
    enum Format: Sendable, Equatable {
        case html
        case viewTree(PageProtocol.NodeKinds)

        var readsViewTree: Bool {
            if case .viewTree = self { true } else { false }
        }
    }

    var viewer: String?
    var sceneID: String
    var arguments: [String: JSONValue]
    /// The language the viewer asked for (`?lang=`, the language cookie, `Accept-Language`).
    var locale: String?
    /// A preview's page: its viewer was chosen by the server, not by a sign-in.
    var isPreview = false
    /// The address the page was requested from (for the per-address page limit).
    var address = "unknown"
    /// The signed-out visitor's id (for experiments), and the arms a preview frame chose.
    var anonymousID: String?
    var armOverrides: [String: String] = [:]
    var format = Format.html

    /// The context the page's scene is assembled for.
    var context: SceneContext {
        SceneContext(viewer: viewer, arguments: arguments, anonymousID: anonymousID, armOverrides: armOverrides, locale: locale)
    }
}
