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
///                     { "name": "count", "type": "int", "default": 1, "range": [1, 10] },
///                     { "name": "hello", "type": "string", "default": "Hello, {name}!",
///                       "message": [ { "name": "name", "type": "text" } ] } ],
///     "events": ["greeting.wave"],
///     "payloads": { "greeting.wave": ["to", "style"] },
///     "ownerOnlyParameter": null } ] }
/// ```
///
/// Write one from the Swift descriptors instead of by hand (`scenery list --manifest` does
/// this for the types the tool knows):
///
/// ```swift
/// try ModuleManifest(modules: [GreetingModule.descriptor]).jsonText().write(to: url, atomically: true, encoding: .utf8)
/// ```
public struct ModuleManifest: Sendable, Codable {
    /// The declared module types.
    public var modules: [ModuleDescriptor]

    private enum CodingKeys: String, CodingKey { case modules }

    /// A manifest declaring these module types.
    public init(modules: [ModuleDescriptor]) {
        self.modules = modules
    }

    public init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: CodingKeys.self)
        modules = try container.decode([Entry].self, forKey: .modules).map(\.descriptor)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(modules.map(Entry.init), forKey: .modules)
    }

    /// The manifest as a file's text: stable (sorted keys and names), so regenerating it
    /// changes the file only when a descriptor changed.
    public func jsonText() throws(SceneryError) -> String {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        do {
            let sorted = ModuleManifest(modules: modules.sorted { $0.type < $1.type })
            return String(decoding: try encoder.encode(sorted), as: UTF8.self) + "\n"
        } catch {
            throw SceneryError(.invalidScene, "Cannot write the module manifest: \(error.localizedDescription).")
        }
    }

    /// Reads a manifest.
    /// - Throws: ``SceneryError`` naming the file and the JSON path of the problem.
    public static func load(from file: URL) throws(SceneryError) -> ModuleManifest {
        let data: Data
        do {
            data = try RegularFile.contents(of: file.path, limit: SceneRegistry.largestSceneFile)
        } catch {
            throw SceneryError(.unreadableFile, "Cannot read the module manifest \(file.path.quoted): \(error.description).")
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

    private struct Entry: Codable {
        var type: String
        var summary: String?
        var version: Int?
        var parameters: [Parameter]?
        var events: [String]?
        var defaultActions: [String]?
        /// The payload keys of the typed events among `events`.
        var payloads: [String: [String]]?
        var ownerOnlyParameter: String?
        var ownerOnlyActions: [String: String]?
        var countsRowImpressions: Bool?

        var descriptor: ModuleDescriptor {
            var descriptor = ModuleDescriptor(
                type: type, summary: summary ?? "", version: version ?? 1, parameters: (parameters ?? []).map(\.spec), events: Set(events ?? []),
                defaultActions: Set(defaultActions ?? []), ownerOnlyParameter: ownerOnlyParameter)
            descriptor.payloadKeys = (payloads ?? [:]).mapValues(Set.init)
            descriptor.ownerOnlyActions = ownerOnlyActions ?? [:]
            descriptor.countsRowImpressions = countsRowImpressions ?? false
            return descriptor
        }

        init(_ descriptor: ModuleDescriptor) {
            type = descriptor.type
            summary = descriptor.summary
            version = descriptor.version == 1 ? nil : descriptor.version
            parameters = descriptor.parameters.map(Parameter.init)
            events = descriptor.events.isEmpty ? nil : descriptor.events.sorted()
            defaultActions = descriptor.defaultActions.isEmpty ? nil : descriptor.defaultActions.sorted()
            payloads = descriptor.payloadKeys.isEmpty ? nil : descriptor.payloadKeys.mapValues { $0.sorted() }
            ownerOnlyParameter = descriptor.ownerOnlyParameter
            ownerOnlyActions = descriptor.ownerOnlyActions.isEmpty ? nil : descriptor.ownerOnlyActions
            countsRowImpressions = descriptor.countsRowImpressions ? true : nil
        }
    }

    private struct Parameter: Codable {
        var name: String
        var type: ParameterType
        var `default`: JSONValue?
        var allowedValues: [String]?
        var range: [Int]?
        /// For a message: the arguments the module gives it (`[]` for none).
        var message: [MessageArgument]?
        var summary: String?

        init(_ spec: ParameterSpec) {
            name = spec.name
            type = spec.type
            `default` = spec.defaultValue
            allowedValues = spec.allowedValues
            range = spec.range.map { [$0.lowerBound, $0.upperBound] }
            message = spec.messageArguments.map { $0.map { MessageArgument(name: $0.name, type: $0.type, summary: $0.summary.isEmpty ? nil : $0.summary) } }
            summary = spec.summary
        }

        var spec: ParameterSpec {
            let bounds = range.flatMap { $0.count == 2 && $0[0] <= $0[1] ? $0[0]...$0[1] : nil }
            var spec = ParameterSpec(name, type, default: `default`.flatMap(type.coerce), allowedValues: allowedValues, range: bounds, summary: summary ?? "")
            spec.messageArguments = message.map { $0.map { MessageArgumentSpec($0.name, $0.type, summary: $0.summary ?? "") } }
            return spec
        }
    }

    private struct MessageArgument: Codable {
        var name: String
        var type: Scenery.Message.ArgumentType
        var summary: String?
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

extension ParameterType: Codable {}
extension Message.ArgumentType: Codable {}

extension SceneRegistry {
    /// Declares the module types of a manifest for validation (see ``ModuleManifest``).
    public mutating func declareModules(from manifest: ModuleManifest) {
        for descriptor in manifest.modules { declare(descriptor) }
    }

    /// The module types a Swift source declares with a literal name
    /// (`ModuleDescriptor(type: "GuestbookModule", …)`), in order: what the build plugin
    /// finds in a target whose manifest is not yet generated.
    package static func moduleTypes(declaredInSwift source: String) -> [String] {
        var types: [String] = []
        var rest = source[...]
        while let call = rest.range(of: "ModuleDescriptor(") {
            rest = rest[call.upperBound...]
            let arguments = rest.drop { $0.isWhitespace }
            guard arguments.hasPrefix("type:") else { continue }
            let value = arguments.dropFirst("type:".count).drop { $0.isWhitespace }
            guard value.first == "\"", let end = value.dropFirst().firstIndex(where: { $0 == "\"" || $0 == "\\" }), value[end] == "\"" else { continue }
            let name = String(value[value.index(after: value.startIndex)..<end])
            if !name.isEmpty, !types.contains(name) { types.append(name) }
        }
        return types
    }

    /// Lets scenes use module types declared in Swift only (found by
    /// ``moduleTypes(declaredInSwift:)``) and in no manifest: their instances validate
    /// without their parameters and events being checked. A type a manifest declares stays
    /// as it declares it.
    package mutating func declareInSwiftOnly(_ types: some Sequence<String>) {
        modulesDeclaredInSwiftOnly.formUnion(types.filter { registrations[$0] == nil })
        revalidate()
    }

    /// Whether a file in a scene directory is a scene file (not a schema, a manifest, a
    /// message catalog or a theme). This, ``isManifestFile(_:)``,
    /// `MessageCatalog.isCatalogFile(_:)` and `Theme.isThemeFile(_:)` are the one
    /// definition every tool uses.
    public static func isSceneFile(_ name: String) -> Bool {
        name.hasSuffix(".json") && !name.hasSuffix(".schema.json") && !isManifestFile(name) && !MessageCatalog.isCatalogFile(name)
            && !name.hasSuffix(".tokens.json")
    }

    /// Whether a file in a scene directory is a module manifest (`*.modules.json`).
    public static func isManifestFile(_ name: String) -> Bool {
        name.hasSuffix(".modules.json")
    }
}
