import SceneryText
import SceneryViewTree

/// Turns the text of one scene file into a ``SceneDefinition``, collecting every
/// structural problem (syntax, unknown keys, wrong types, bad conditions) in one pass.
///
/// Problems that need other files or the module registry are the validator's.
package struct SceneFileParser {
    package let file: String
    package let id: String
    package internal(set) var diagnostics: [Diagnostic] = []
    package var sourceMap: [String: SourcePosition] = [:]

    package init(file: String, id: String) {
        self.file = file
        self.id = id
    }

    /// Parses a file's bytes; returns `nil` when the file is not usable at all (malformed JSON,
    /// not an object). Diagnostics are in ``diagnostics`` either way.
    package mutating func parse(_ bytes: [UInt8]) -> SceneDefinition? {
        let root: SourceJSON.Node
        do {
            root = try SourceJSON.parse(bytes: bytes)
        } catch {
            self.error(error.message, at: error.location, path: "")
            return nil
        }
        sourceMap.reserveCapacity(bytes.count / 24)  // about one located value per line of a scene file
        sourceMap[""] = root.location
        guard case .object(let members) = root.value else {
            error("A scene file must contain a JSON object, not \(root.kindDescription).", at: root.location, path: "")
            return nil
        }
        let fields = object(members, path: "", allowed: Self.sceneKeys)
        var definition = SceneDefinition(
            id: id, file: file, title: nil, extends: nil, parameters: [], modules: [], remove: [], replace: [],
            layout: nil, variants: [], events: [])
        definition.title = fields["title"].flatMap { string($0, path: "title") }
        if let node = fields["language"], let language = string(node, path: "language") {
            if Self.isLanguageTag(language) {
                definition.language = language
            } else {
                error(
                    "\"language\" must be a BCP 47 language tag such as \"en\" or \"zh-Hans\", not '\(language)'.", at: node.location,
                    path: "language")
            }
        }
        if let node = fields["extends"], let parent = string(node, path: "extends") {
            if parent.isEmpty { error("\"extends\" must name a scene id.", at: node.location, path: "extends") }
            definition.extends = parent
        }
        if let node = fields["parameters"] { definition.parameters = parameters(node, path: "parameters") }
        if let node = fields["modules"] { definition.modules = moduleList(node, path: "modules") }
        if let node = fields["remove"] { definition.remove = idList(node, path: "remove") }
        if let node = fields["replace"] { definition.replace = moduleList(node, path: "replace") }
        if let node = fields["params"] { definition.parameterChanges = parameterChanges(node, path: "params") }
        if let node = fields["layout"] { definition.layout = layout(node, path: "layout") }
        if let node = fields["variants"] { definition.variants = variants(node, path: "variants") }
        if let node = fields["events"] { definition.events = eventRules(node, path: "events") }
        if let node = fields["experiments"] { definition.experiments = experiments(node, path: "experiments") }
        definition.requirements = requirements(fields)
        definition.sourceMap = sourceMap
        return definition
    }

    package static let sceneKeys = [
        "$schema", "format", "requires", "fallback", "title", "language", "extends", "parameters", "modules", "remove", "replace",
        "params", "layout", "variants", "experiments", "events",
    ]
    package static let variantKeys = ["name", "extends", "when", "add", "remove", "replace", "params", "display", "layout", "tabs", "events"]
    package static let experimentKeys = ["name", "when", "arms"]
    package static let armKeys = ["name", "weight", "extends", "add", "remove", "replace", "params", "display", "layout", "tabs", "events"]
    package static let moduleKeys = ["id", "type", "params", "timeout", "display", "transitions", "after", "before", "at"]
    package static let ruleKeys = ["on", "when", "steps", "confirm", "navigate", "block"]

    /// `format`, `requires` and `fallback`.
    package mutating func requirements(_ fields: [String: SourceJSON.Node]) -> SceneRequirements {
        var requirements = SceneRequirements()
        if let node = fields["format"] {
            if case .int(let format) = node.value, format >= 1 {
                requirements.format = format
            } else {
                error("\"format\" must be a whole number from 1 (this app reads format \(SceneRequirements.currentFormat)).", at: node.location, path: "format")
            }
        }
        if let node = fields["requires"], let members = objectMembers(node, path: "requires") {
            for member in members {
                let path = join("requires", member.key)
                sourceMap[path] = member.value.location
                guard case .int(let version) = member.value.value, version >= 1 else {
                    error(
                        "'\(path)' must be the lowest version of \(member.key) the scene works with, a whole number from 1.", at: member.value.location,
                        path: path)
                    continue
                }
                requirements.modules[member.key] = version
            }
        }
        if let node = fields["fallback"], let text = string(node, path: "fallback") {
            if let fallback = SceneRequirements.Fallback(rawValue: text) {
                requirements.fallback = fallback
            } else {
                error(
                    "\"fallback\" must be \"previous\" (keep the previous version of the scene) or \"drop\" (leave out modules this app cannot run), not '\(text)'.",
                    at: node.location, path: "fallback")
            }
        }
        return requirements
    }
}
