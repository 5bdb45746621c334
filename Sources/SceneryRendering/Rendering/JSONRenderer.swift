import Foundation
import SceneryViewTree

/// Renders a view tree as JSON: the documented, stable format a native client draws.
///
/// The output is a ``ViewTreeDocument``: a format name and version, the scene and
/// variant, and the root node. Keys are sorted, so equal trees give equal text.
///
/// ```swift
/// let json = try JSONRenderer().render(await scene.render(), scene: scene.sceneID, variant: scene.variant)
/// ```
package struct JSONRenderer: Sendable {
    /// Whether to indent the output for people.
    package var prettyPrinted: Bool

    /// Creates a renderer.
    package init(prettyPrinted: Bool = true) {
        self.prettyPrinted = prettyPrinted
    }

    /// The tree as a JSON document.
    package func render(_ node: ViewNode, scene: String? = nil, variant: String? = nil) -> String {
        let document = ViewTreeDocument(scene: scene, variant: variant, root: node)
        let encoder = JSONEncoder()
        encoder.outputFormatting = prettyPrinted ? [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes] : [.sortedKeys, .withoutEscapingSlashes]
        // A view tree holds only strings, numbers, Booleans and nested values, which always encode.
        guard let data = try? encoder.encode(document) else { return "{}" }
        return String(decoding: data, as: UTF8.self) + "\n"
    }
}

/// The top level of the JSON view-tree format.
///
/// ```json
/// { "format": "scenery.view-tree", "version": 1, "scene": "user-profile", "variant": "owner",
///   "root": { "id": "scene", "type": "stack", "axis": "vertical", "children": [ … ] } }
/// ```
public struct ViewTreeDocument: Sendable, Hashable, Codable {
    /// Always `scenery.view-tree`.
    public var format: String
    /// The format version; changes that break readers increase it.
    public var version: Int
    /// The scene id, if the tree is a whole scene.
    public var scene: String?
    /// The variant chosen, if the tree is a whole scene.
    public var variant: String?
    /// The root node.
    public var root: ViewNode

    /// The current format version.
    public static let currentVersion = 1

    /// Creates a document for a tree.
    public init(scene: String? = nil, variant: String? = nil, root: ViewNode) {
        self.format = "scenery.view-tree"
        self.version = Self.currentVersion
        self.scene = scene
        self.variant = variant
        self.root = root
    }
}
