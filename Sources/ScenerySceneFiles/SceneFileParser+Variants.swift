import SceneryText
import SceneryViewTree

/// Variants (chosen by a condition) and experiments (arms by weight): the changes each
/// makes to the scene.
extension SceneFileParser {
    package mutating func variants(_ node: SourceJSON.Node, path: String) -> [Variant] {
        guard let elements = array(node, path: path) else { return [] }
        var variants: [Variant] = []
        for (index, element) in elements.enumerated() {
            let variantPath = "\(path)[\(index)]"
            guard let members = objectMembers(element, path: variantPath) else { continue }
            let fields = object(members, path: variantPath, allowed: Self.variantKeys)
            var variant = Variant(name: "variant \(index + 1)", condition: nil, add: [], remove: [], replace: [], layout: nil, events: [])
            variant.path = variantPath
            variant.file = file
            if let name = fields["name"].flatMap({ string($0, path: join(variantPath, "name")) }) { variant.name = name }
            if let parent = fields["extends"].flatMap({ string($0, path: join(variantPath, "extends")) }) {
                variant.extends = parent
                if fields["name"] == nil { variant.name = parent }
            }
            if let when = fields["when"] {
                guard let condition = condition(when, path: join(variantPath, "when"), allowsEventFields: false) else { continue }
                variant.condition = condition
            }
            changes(fields, path: variantPath, into: &variant)
            variants.append(variant)
        }
        return variants
    }

    /// The keys a variant and an experiment's arm share: what they change.
    package mutating func changes(_ fields: [String: SourceJSON.Node], path: String, into variant: inout Variant) {
        if let add = fields["add"] { variant.add = moduleList(add, path: join(path, "add")) }
        if let remove = fields["remove"] { variant.remove = idList(remove, path: join(path, "remove")) }
        if let replace = fields["replace"] { variant.replace = moduleList(replace, path: join(path, "replace")) }
        if let params = fields["params"] { variant.parameterChanges = parameterChanges(params, path: join(path, "params")) }
        if let displayNode = fields["display"], let members = objectMembers(displayNode, path: join(path, "display")) {
            for member in object(members, path: join(path, "display"), allowed: members.map(\.key)) {
                if let layout = display(member.value, path: join(join(path, "display"), member.key)) { variant.displayChanges[ModuleID(member.key)] = layout }
            }
        }
        if let layoutNode = fields["layout"] { variant.layout = layout(layoutNode, path: join(path, "layout")) }
        if let tabs = fields["tabs"] { variant.tabChanges = tabChanges(tabs, path: join(path, "tabs")) }
        if let events = fields["events"] { variant.events = eventRules(events, path: join(path, "events")) }
    }

    /// `"experiments"`: names unique, at least two arms each, arm names unique, weights
    /// positive numbers.
    package mutating func experiments(_ node: SourceJSON.Node, path: String) -> [Experiment] {
        guard let elements = array(node, path: path) else { return [] }
        var experiments: [Experiment] = []
        for (index, element) in elements.enumerated() {
            let experimentPath = "\(path)[\(index)]"
            guard let members = objectMembers(element, path: experimentPath) else { continue }
            let fields = object(members, path: experimentPath, allowed: Self.experimentKeys)
            guard let nameNode = fields["name"] else {
                error("An experiment needs a \"name\": assignment hashes it, and reports show it.", at: element.location, path: experimentPath)
                continue
            }
            guard let name = string(nameNode, path: join(experimentPath, "name")) else { continue }
            guard isValidID(name) else {
                error("An experiment's name must be 1 to 128 bytes.", at: nameNode.location, path: join(experimentPath, "name"))
                continue
            }
            if experiments.contains(where: { $0.name == name }) {
                error(
                    "Two experiments are named '\(name)'; give each its own name (assignment hashes it).", at: nameNode.location,
                    path: join(experimentPath, "name"))
                continue
            }
            var experiment = Experiment(name: name, arms: [])
            experiment.path = experimentPath
            experiment.file = file
            if let when = fields["when"] {
                guard let condition = condition(when, path: join(experimentPath, "when"), allowsEventFields: false) else { continue }
                experiment.condition = condition
            }
            let armsPath = join(experimentPath, "arms")
            guard let armsNode = fields["arms"] else {
                error("The experiment '\(name)' needs \"arms\": at least two, each with a name and a weight.", at: element.location, path: experimentPath)
                continue
            }
            guard let armNodes = array(armsNode, path: armsPath) else { continue }
            var isValid = true
            for (armIndex, armNode) in armNodes.enumerated() {
                let armPath = "\(armsPath)[\(armIndex)]"
                guard let armMembers = objectMembers(armNode, path: armPath) else {
                    isValid = false
                    continue
                }
                let armFields = object(armMembers, path: armPath, allowed: Self.armKeys)
                guard let armName = armFields["name"].flatMap({ string($0, path: join(armPath, "name")) }), isValidID(armName) else {
                    error("Each arm needs a \"name\" of 1 to 128 bytes.", at: armNode.location, path: armPath)
                    isValid = false
                    continue
                }
                if experiment.arms.contains(where: { $0.name == armName }) {
                    error(
                        "The experiment '\(name)' has two arms named '\(armName)'; give each arm its own name.", at: armFields["name"]?.location,
                        path: join(armPath, "name"))
                    isValid = false
                    continue
                }
                guard let weight = self.weight(armFields["weight"], arm: armName, at: armNode.location, path: join(armPath, "weight")) else {
                    isValid = false
                    continue
                }
                var arm = Experiment.Arm(name: armName, weight: weight)
                arm.changes.path = armPath
                arm.changes.file = file
                if let parent = armFields["extends"].flatMap({ string($0, path: join(armPath, "extends")) }) { arm.changes.extends = parent }
                changes(armFields, path: armPath, into: &arm.changes)
                experiment.arms.append(arm)
            }
            if isValid && experiment.arms.count < 2 {
                error(
                    "The experiment '\(name)' has \(experiment.arms.count) arm\(experiment.arms.count == 1 ? "" : "s"); it needs at least two to compare (the first may change nothing).",
                    at: armsNode.location, path: armsPath)
                continue
            }
            if isValid { experiments.append(experiment) }
        }
        return experiments
    }

    /// An arm's `"weight"`: a positive, finite number.
    package mutating func weight(_ node: SourceJSON.Node?, arm: String, at armLocation: SourcePosition?, path: String) -> Double? {
        guard let node else {
            error(
                "The arm '\(arm)' needs a \"weight\": a positive number, its share against the other arms' (50 and 50 split evenly).", at: armLocation,
                path: path)
            return nil
        }
        let value: Double? =
            switch node.value {
            case .int(let number): Double(number)
            case .double(let number): number
            default: nil
            }
        guard let value, value.isFinite, value > 0 else {
            let written = value.map { $0 == $0.rounded() && abs($0) < 1e15 ? "\(Int($0))" : "\($0)" } ?? node.kindDescription
            error(
                "The arm '\(arm)' has the weight \(written); a weight must be a positive number, its share against the other arms' weights.",
                at: node.location, path: path)
            return nil
        }
        return value
    }
}
