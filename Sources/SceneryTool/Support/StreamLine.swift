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
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys, .withoutEscapingSlashes]
        guard let data = try? encoder.encode(document), let root = try? JSONDecoder().decode(JSONValue.self, from: data),
            case .object(var fields) = root
        else { return }
        fields["type"] = "tree"
        fields["sequence"] = .int(sequence)
        write(fields)
    }

    /// The patches of one update.
    static func patches(_ update: SceneUpdate) {
        let encoder = JSONEncoder()
        guard let data = try? encoder.encode(update.patches), let patches = try? JSONDecoder().decode(JSONValue.self, from: data) else { return }
        write([
            "type": "patches", "sequence": .int(update.sequence), "module": update.module.map { .string($0.rawValue) } ?? .null,
            "node": .string(update.node.id.rawValue), "patches": patches,
        ])
    }

    /// Where an event went.
    static func route(_ outcome: EventOutcome) {
        let result: String =
            switch outcome.result {
            case .delivered: "delivered"
            case .handled(let level): "handled by \(level)"
            case .cancelled(let level): "cancelled by \(level)"
            case .ignored: "ignored"
            }
        write([
            "type": "route", "event": .string(outcome.finalEvent.name), "result": .string(result),
            "route": .array(outcome.route.map { .string($0.description) }),
        ])
    }
}
