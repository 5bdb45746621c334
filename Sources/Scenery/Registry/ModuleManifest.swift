import Foundation

/// Module types declared in a JSON file, so tools can validate the scene files of a
/// package whose modules they cannot run (the build plugin, `scenery validate`).
///
/// A manifest is a file named `*.modules.json` beside the scene files:
///
/// ```json
/// { "modules": [
///   { "type": "GreetingModule", "summary": "Greets a user.",
///     "parameters": [ { "name": "user", "type": "userID" },
///                     { "name": "style", "type": "string", "default": "plain", "allowedValues": ["plain", "loud"] },
///                     { "name": "count", "type": "int", "default": 1, "range": [1, 10] } ],
///     "events": ["greeting.wave"],
///     "ownerOnlyParameter": null } ] }
/// ```
public struct ModuleManifest: Sendable, Decodable {
    /// The declared module types.
    public var modules: [ModuleDescriptor]

    private enum CodingKeys: String, CodingKey { case modules }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        modules = try container.decode([Entry].self, forKey: .modules).map(\.descriptor)
    }

    /// Reads a manifest.
    /// - Throws: ``SceneryError`` naming the file and the JSON path of the problem.
    public static func load(from file: URL) throws(SceneryError) -> ModuleManifest {
        let data: Data
        do {
            data = try Data(contentsOf: file)
        } catch {
            throw SceneryError(.unreadableFile, "Cannot read the module manifest '\(file.path)': \(error.localizedDescription).")
        }
        do {
            return try JSONDecoder().decode(ModuleManifest.self, from: data)
        } catch {
            let location = (try? JSONLocator(bytes: Array(data))).map { locator in
                locator.location(of: Self.path(of: error))
            }
            let place = location.map { "\(file.path):\($0.line):\($0.column)" } ?? file.path
            throw SceneryError(.invalidScene, "\(place): error: the module manifest is invalid: \(Self.describe(error))")
        }
    }

    private struct Entry: Decodable {
        var type: String
        var summary: String?
        var parameters: [Parameter]?
        var events: [String]?
        var defaultActions: [String]?
        var ownerOnlyParameter: String?

        var descriptor: ModuleDescriptor {
            ModuleDescriptor(
                type: type, summary: summary ?? "", parameters: (parameters ?? []).map(\.spec), events: Set(events ?? []),
                defaultActions: Set(defaultActions ?? []), ownerOnlyParameter: ownerOnlyParameter)
        }
    }

    private struct Parameter: Decodable {
        var name: String
        var type: ParameterType
        var `default`: JSONValue?
        var allowedValues: [String]?
        var range: [Int]?
        var summary: String?

        var spec: ParameterSpec {
            let bounds = range.flatMap { $0.count == 2 && $0[0] <= $0[1] ? $0[0]...$0[1] : nil }
            return ParameterSpec(name, type, default: `default`.flatMap(type.coerce), allowedValues: allowedValues, range: bounds, summary: summary ?? "")
        }
    }

    private static func path(of error: any Error) -> String {
        let codingPath: [any CodingKey]
        switch error as? DecodingError {
        case .typeMismatch(_, let context), .valueNotFound(_, let context), .keyNotFound(_, let context), .dataCorrupted(let context):
            codingPath = context.codingPath
        default:
            return ""
        }
        return codingPath.map { $0.intValue.map { "[\($0)]" } ?? ".\($0.stringValue)" }.joined().drop { $0 == "." }.description
    }

    private static func describe(_ error: any Error) -> String {
        switch error as? DecodingError {
        case .keyNotFound(let key, _): "the key \"\(key.stringValue)\" is missing; add it."
        case .typeMismatch(let type, _): "a value has the wrong type (expected \(type)); fix it."
        case .valueNotFound(let type, _): "a value is missing (expected \(type))."
        case .dataCorrupted(let context): context.debugDescription
        default: "\(error)"
        }
    }
}

extension ParameterType: Decodable {}

extension SceneRegistry {
    /// Declares the module types of a manifest for validation (see ``ModuleManifest``).
    public mutating func declareModules(from manifest: ModuleManifest) {
        for descriptor in manifest.modules { declare(descriptor) }
    }

    /// Whether a file in a scene directory is a scene file (not a schema or a manifest).
    /// This and ``isManifestFile(_:)`` are the one definition every tool uses.
    public static func isSceneFile(_ name: String) -> Bool {
        name.hasSuffix(".json") && !name.hasSuffix(".schema.json") && !isManifestFile(name)
    }

    /// Whether a file in a scene directory is a module manifest (`*.modules.json`).
    public static func isManifestFile(_ name: String) -> Bool {
        name.hasSuffix(".modules.json")
    }
}
