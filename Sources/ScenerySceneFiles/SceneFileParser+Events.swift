import SceneryText
import SceneryViewTree

/// The scene's event rules and their steps: confirm, navigate, block, continue.
extension SceneFileParser {
    package mutating func eventRules(_ node: SourceJSON.Node, path: String) -> [EventRule] {
        guard let elements = array(node, path: path) else { return [] }
        var rules: [EventRule] = []
        for (index, element) in elements.enumerated() {
            let rulePath = "\(path)[\(index)]"
            guard let members = objectMembers(element, path: rulePath) else { continue }
            let fields = object(members, path: rulePath, allowed: Self.ruleKeys)
            guard let onNode = fields["on"], let on = string(onNode, path: join(rulePath, "on")), !on.isEmpty else {
                if fields["on"] == nil {
                    error("The event rule needs \"on\": the name of the event it applies to.", at: element.location, path: rulePath)
                }
                continue
            }
            var rule = EventRule(on: on, condition: nil, steps: [])
            rule.path = rulePath
            rule.file = file
            if let when = fields["when"] {
                guard let condition = condition(when, path: join(rulePath, "when"), allowsEventFields: true) else { continue }
                rule.condition = condition
            }
            let shorthand = ["confirm", "navigate", "block"].filter { fields[$0] != nil }
            if let stepsNode = fields["steps"] {
                if let first = shorthand.first {
                    error("Use either \"steps\" or \"\(first)\" in one rule, not both.", at: fields[first]?.location, path: join(rulePath, first))
                }
                guard let stepNodes = array(stepsNode, path: join(rulePath, "steps")) else { continue }
                for (stepIndex, stepNode) in stepNodes.enumerated() {
                    if let step = step(stepNode, path: "\(join(rulePath, "steps"))[\(stepIndex)]") { rule.steps.append(step) }
                }
            } else if shorthand.count == 1, let key = shorthand.first, let value = fields[key] {
                if let step = stepBody(key: key, value: value, path: join(rulePath, key)) { rule.steps.append(step) }
            } else if shorthand.count > 1 {
                error("Give several actions as \"steps\": [...] so their order is explicit.", at: element.location, path: rulePath)
                continue
            } else {
                error("The event rule needs \"steps\" (or one of \"confirm\", \"navigate\", \"block\").", at: element.location, path: rulePath)
                continue
            }
            rules.append(rule)
        }
        return rules
    }

    package mutating func step(_ node: SourceJSON.Node, path: String) -> EventRule.Step? {
        switch node.value {
        case .string("continue"): return .continue
        case .string("block"): return .block
        case .string(let word):
            error(
                "Unknown step '\(word)'\(Suggestion.didYouMean(word, in: ["continue", "block"])); steps are \"continue\", \"block\", {\"confirm\": …} and {\"navigate\": …}.",
                at: node.location, path: path)
            return nil
        case .object(let members) where members.count == 1:
            let member = members[0]
            guard ["confirm", "navigate", "block"].contains(member.key) else {
                error(
                    "Unknown step '\(member.key)'\(Suggestion.didYouMean(member.key, in: ["confirm", "navigate", "block"])); steps are \"continue\", \"block\", {\"confirm\": …} and {\"navigate\": …}.",
                    at: member.keyLocation, path: join(path, member.key))
                return nil
            }
            sourceMap[join(path, member.key)] = member.value.location
            return stepBody(key: member.key, value: member.value, path: join(path, member.key))
        default:
            error("A step is \"continue\", \"block\", or an object with exactly one key: \"confirm\" or \"navigate\".", at: node.location, path: path)
            return nil
        }
    }

    package mutating func stepBody(key: String, value: SourceJSON.Node, path: String) -> EventRule.Step? {
        switch key {
        case "block":
            guard case .bool(true) = value.value else {
                error("Write \"block\": true to stop the event.", at: value.location, path: path)
                return nil
            }
            return .block
        case "confirm":
            guard let members = objectMembers(value, path: path) else { return nil }
            let fields = object(members, path: path, allowed: ["title", "message", "confirm", "cancel", "destructive"])
            guard let titleNode = fields["title"], let title = string(titleNode, path: join(path, "title")) else {
                if fields["title"] == nil { error("A confirmation needs a \"title\", the question to ask.", at: value.location, path: path) }
                return nil
            }
            checkTemplates(value, path: path, allowsEventFields: true)
            return .confirm(
                Confirmation(
                    title: title,
                    message: fields["message"].flatMap { string($0, path: join(path, "message")) },
                    confirmLabel: fields["confirm"].flatMap { string($0, path: join(path, "confirm")) } ?? "OK",
                    cancelLabel: fields["cancel"].flatMap { string($0, path: join(path, "cancel")) } ?? "Cancel",
                    isDestructive: fields["destructive"].flatMap { bool($0, path: join(path, "destructive")) } ?? false))
        default:  // navigate
            guard let members = objectMembers(value, path: path) else { return nil }
            let fields = object(members, path: path, allowed: ["scene", "args"])
            guard let sceneNode = fields["scene"], let scene = string(sceneNode, path: join(path, "scene")) else {
                if fields["scene"] == nil { error("A navigation needs a \"scene\": the id of the scene to show.", at: value.location, path: path) }
                return nil
            }
            var arguments: [String: JSONValue] = [:]
            if let argsNode = fields["args"], let argMembers = objectMembers(argsNode, path: join(path, "args")) {
                for member in argMembers {
                    sourceMap[join(join(path, "args"), member.key)] = member.value.location
                    checkTemplates(member.value, path: join(join(path, "args"), member.key), allowsEventFields: true)
                    arguments[member.key] = member.value.plainValue
                }
            }
            return .navigate(scene: scene, arguments: arguments)
        }
    }
}
