import Foundation
import Scenery

/// One line of the JSON stream `scenery interact --format json` writes (NDJSON).
enum StreamLine {
    static func write(_ object: [String: JSONValue]) {
        Output.line(JSONValue.object(object).compactJSON)
    }

    /// A whole tree: at the start, after navigation, after `back` and on `resync`.
    /// `sequence` is the last update it includes; the next patches line is numbered one more.
    static func tree(_ tree: ViewNode, scene: SceneInstance, sequence: Int) {
        let document = ViewTreeDocument(scene: scene.sceneID, variant: scene.variant, root: tree)
        guard case .object(var fields) = try? JSONValueEncoder().encode(document) else { return }
        fields["type"] = "tree"
        fields["sequence"] = .int(sequence)
        write(fields)
    }

    /// The patches of one update.
    static func patches(_ update: SceneUpdate) {
        guard let patches = try? JSONValueEncoder().encode(update.patches) else { return }
        write([
            "type": "patches", "sequence": .int(update.sequence), "module": update.module.map { .string($0.rawValue) } ?? .null,
            "node": .string(update.node.id.rawValue), "patches": patches,
        ])
    }

    /// Where an event went.
    static func route(_ outcome: EventOutcome) {
        write([
            "type": "route", "event": .string(outcome.finalEvent.name), "result": .string(outcome.result.description),
            "route": .array(outcome.route.map { .string($0.description) }),
        ])
    }
}
