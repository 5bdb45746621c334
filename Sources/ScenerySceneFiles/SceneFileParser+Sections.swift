import SceneryText
import SceneryViewTree

/// A scene file's sections: parameters, modules and their placement, the layout and its
/// tabs, parameter changes.
extension SceneFileParser {
    package mutating func parameters(_ node: SourceJSON.Node, path: String) -> [ParameterSpec] {
        guard let members = objectMembers(node, path: path) else { return [] }
        var specs: [ParameterSpec] = []
        let typeNames = ParameterType.allCases.map(\.rawValue)
        for member in members {
            let memberPath = join(path, member.key)
            sourceMap[memberPath] = member.value.location
            guard !specs.contains(where: { $0.name == member.key }) else {
                error("The parameter \"\(member.key)\" is declared twice; keep one.", at: member.keyLocation, path: memberPath)
                continue
            }
            guard member.key != "viewer", member.key != "event" else {
                error("\"\(member.key)\" is reserved; choose another parameter name.", at: member.keyLocation, path: memberPath)
                continue
            }
            var typeNode = member.value
            var typePath = memberPath
            var defaultValue: JSONValue?
            var summary = ""
            if case .object(let fields) = member.value.value {
                let spec = object(fields, path: memberPath, allowed: ["type", "default", "summary"])
                guard let type = spec["type"] else {
                    error(
                        "The parameter \"\(member.key)\" needs a \"type\" (\(typeNames.joined(separator: ", "))).", at: member.value.location, path: memberPath)
                    continue
                }
                typeNode = type
                typePath = join(memberPath, "type")
                defaultValue = spec["default"]?.plainValue
                summary = spec["summary"].flatMap { string($0, path: join(memberPath, "summary")) } ?? ""
            }
            guard let typeName = string(typeNode, path: typePath) else { continue }
            guard let type = ParameterType(rawValue: typeName) else {
                error(
                    "Unknown parameter type '\(typeName)'\(Suggestion.didYouMean(typeName, in: typeNames)); use one of \(typeNames.joined(separator: ", ")).",
                    at: typeNode.location, path: typePath)
                continue
            }
            if let value = defaultValue, type.coerce(value) == nil {
                error(
                    "The default of \"\(member.key)\" must be \(type.phrase), not \(value.kindDescription).", at: sourceMap[join(memberPath, "default")],
                    path: join(memberPath, "default"))
                defaultValue = nil
            }
            specs.append(ParameterSpec(member.key, type, default: defaultValue.flatMap(type.coerce), summary: summary))
        }
        return specs
    }

    package mutating func moduleList(_ node: SourceJSON.Node, path: String) -> [ModuleInstance] {
        guard let elements = array(node, path: path) else { return [] }
        var instances: [ModuleInstance] = []
        var seen: [ModuleID: String] = [:]
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            guard let instance = moduleInstance(element, path: elementPath) else { continue }
            if let first = seen[instance.id] {
                error(
                    "Duplicate module id '\(instance.id)' (first at \(first)); module ids must be unique in a scene.",
                    at: sourceMap[join(elementPath, "id")], path: join(elementPath, "id"))
                continue
            }
            seen[instance.id] = elementPath
            instances.append(instance)
        }
        return instances
    }

    package mutating func moduleInstance(_ node: SourceJSON.Node, path: String) -> ModuleInstance? {
        guard let members = objectMembers(node, path: path) else { return nil }
        let fields = object(members, path: path, allowed: Self.moduleKeys)
        guard let idNode = fields["id"] else {
            error("The module needs an \"id\", unique in the scene.", at: node.location, path: path)
            return nil
        }
        guard let typeNode = fields["type"] else {
            error("The module needs a \"type\", the name of a registered module type.", at: node.location, path: path)
            return nil
        }
        guard let id = string(idNode, path: join(path, "id")), let type = string(typeNode, path: join(path, "type"))
        else { return nil }
        guard isValidID(id) else {
            error("The module id '\(id)' must be letters, digits, '-' or '_' (no '/').", at: idNode.location, path: join(path, "id"))
            return nil
        }
        var instance = ModuleInstance(id: ModuleID(id), type: type)
        instance.path = path
        instance.file = file
        if let paramsNode = fields["params"], let members = objectMembers(paramsNode, path: join(path, "params")) {
            instance.parameters = parameterValues(members, path: join(path, "params"))
        }
        if let timeoutNode = fields["timeout"] {
            if case .int(let milliseconds) = timeoutNode.value, (1...600_000).contains(milliseconds) {
                instance.timeout = .milliseconds(milliseconds)
            } else {
                error("'timeout' must be a whole number of milliseconds from 1 to 600000.", at: timeoutNode.location, path: join(path, "timeout"))
            }
        }
        if let displayNode = fields["display"] { instance.display = display(displayNode, path: join(path, "display")) }
        if let transitionsNode = fields["transitions"] { instance.transitions = transitions(transitionsNode, path: join(path, "transitions")) }
        instance.placement = placement(fields, path: path)
        return instance
    }

    /// `"after": "id"`, `"before": "id"` or `"at": "top"`: at most one of them.
    package mutating func placement(_ fields: [String: SourceJSON.Node], path: String) -> ModuleInstance.Placement? {
        let given = ["after", "before", "at"].filter { fields[$0] != nil }
        guard let key = given.first, let node = fields[key] else { return nil }
        if given.count > 1 {
            error(
                "A module is placed once: use one of \(given.map { "\"\($0)\"" }.joined(separator: ", ")), not several.", at: node.location,
                path: join(path, given[1]))
            return nil
        }
        guard let value = string(node, path: join(path, key)) else { return nil }
        switch key {
        case "at":
            guard value == "top" else {
                error(
                    "'at' places a module at \"top\"; use \"after\" or \"before\" with a module id to place it elsewhere.", at: node.location,
                    path: join(path, "at"))
                return nil
            }
            return .top
        case "after": return .after(ModuleID(value))
        default: return .before(ModuleID(value))
        }
    }

    /// How a module's list lays out its items: `"rows"`, `"carousel"`, `{ "columns": 3 }`
    /// or `{ "minCellWidth": 24 }`.
    package mutating func display(_ node: SourceJSON.Node, path: String) -> ViewNode.ListLayout? {
        let expected =
            "\"rows\", \"carousel\", { \"columns\": 1 to 12 } (a grid) or { \"minCellWidth\": 8 to 60 } (a grid of as many columns as fit)"
        switch node.value {
        case .string("rows"): return .rows
        case .string("carousel"): return .carousel
        case .object(let members) where members.count == 1:
            let member = members[0]
            sourceMap[join(path, member.key)] = member.value.location
            switch (member.key, member.value.value) {
            case ("columns", .int(let columns)) where (1...12).contains(columns): return .grid(columns: columns)
            case ("minCellWidth", .int(let width)) where (8...60).contains(width): return .adaptiveGrid(minimumCellWidth: width)
            default: break
            }
        default: break
        }
        error("'\(path)' must be \(expected).", at: node.location, path: path)
        return nil
    }

    package func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 128
            && id.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_" || $0 == "." }
    }

    package mutating func idList(_ node: SourceJSON.Node, path: String) -> [ModuleID] {
        guard let elements = array(node, path: path) else { return [] }
        return elements.enumerated().compactMap { index, element in
            string(element, path: "\(path)[\(index)]").map { ModuleID($0) }
        }
    }

    package mutating func layout(_ node: SourceJSON.Node, path: String) -> [LayoutItem]? {
        guard let elements = array(node, path: path) else { return nil }
        var items: [LayoutItem] = []
        for (index, element) in elements.enumerated() {
            let elementPath = "\(path)[\(index)]"
            switch element.value {
            case .string(let id):
                items.append(.module(ModuleID(id)))
            case .object(let members):
                let fields = object(members, path: elementPath, allowed: ["id", "tabs"])
                guard let tabsNode = fields["tabs"], let tabNodes = array(tabsNode, path: join(elementPath, "tabs")) else {
                    error("A layout object needs \"tabs\": an array of {\"id\", \"title\", \"modules\"}.", at: element.location, path: elementPath)
                    continue
                }
                let switchID = fields["id"].flatMap { string($0, path: join(elementPath, "id")) } ?? "tabs"
                var tabs: [TabSpec] = []
                for (tabIndex, tabNode) in tabNodes.enumerated() {
                    if let tab = tab(tabNode, path: "\(join(elementPath, "tabs"))[\(tabIndex)]") { tabs.append(tab) }
                }
                if tabs.isEmpty {
                    error("A tab switch needs at least one tab.", at: tabsNode.location, path: join(elementPath, "tabs"))
                } else {
                    items.append(.tabs(id: switchID, tabs: tabs))
                }
            default:
                typeError(element, path: elementPath, expected: "a module id or a {\"tabs\": [...]} object")
            }
        }
        return items
    }

    /// One tab: `{ "id", "title", "modules" }`.
    package mutating func tab(_ node: SourceJSON.Node, path: String) -> TabSpec? {
        guard let members = objectMembers(node, path: path) else { return nil }
        let tab = object(members, path: path, allowed: ["id", "title", "modules"])
        guard let id = tab["id"].flatMap({ string($0, path: join(path, "id")) }), let title = tab["title"].flatMap({ string($0, path: join(path, "title")) }),
            let modulesNode = tab["modules"]
        else {
            error("A tab needs \"id\", \"title\" and \"modules\".", at: node.location, path: path)
            return nil
        }
        return TabSpec(id: id, title: title, modules: idList(modulesNode, path: join(path, "modules")))
    }

    /// Module parameter values as written (`$references` checked, not resolved), each
    /// located for diagnostics.
    package mutating func parameterValues(_ members: [SourceJSON.Member], path: String) -> [String: JSONValue] {
        var values: [String: JSONValue] = [:]
        for member in members {
            let memberPath = join(path, member.key)
            sourceMap[memberPath] = member.value.location
            checkTemplates(member.value, path: memberPath, allowsEventFields: false)
            values[member.key] = member.value.plainValue
        }
        return values
    }

    /// `"params"`: parameters changed on modules, `{ "<module id>": { "<name>": value } }`.
    package mutating func parameterChanges(_ node: SourceJSON.Node, path: String) -> [ModuleID: [String: JSONValue]] {
        guard let members = objectMembers(node, path: path) else { return [:] }
        var changes: [ModuleID: [String: JSONValue]] = [:]
        for member in object(members, path: path, allowed: members.map(\.key)).sorted(by: { $0.key < $1.key }) {
            let modulePath = join(path, member.key)
            guard let parameters = objectMembers(member.value, path: modulePath) else { continue }
            changes[ModuleID(member.key)] = parameterValues(parameters, path: modulePath)
        }
        return changes
    }

    /// `"tabs"`: `{ "<switch id>": { "add": [tabs], "titles": { "<tab id>": "title" } } }`.
    package mutating func tabChanges(_ node: SourceJSON.Node, path: String) -> [TabChange] {
        guard let members = objectMembers(node, path: path) else { return [] }
        var changes: [TabChange] = []
        for member in object(members, path: path, allowed: members.map(\.key)).sorted(by: { $0.key < $1.key }) {
            let switchPath = join(path, member.key)
            guard let fieldMembers = objectMembers(member.value, path: switchPath) else { continue }
            let fields = object(fieldMembers, path: switchPath, allowed: ["add", "titles"])
            var change = TabChange(switchID: member.key, add: [], titles: [:])
            change.path = switchPath
            if let addNode = fields["add"], let tabNodes = array(addNode, path: join(switchPath, "add")) {
                for (index, tabNode) in tabNodes.enumerated() {
                    if let tab = tab(tabNode, path: "\(join(switchPath, "add"))[\(index)]") { change.add.append(tab) }
                }
            }
            if let titlesNode = fields["titles"], let titleMembers = objectMembers(titlesNode, path: join(switchPath, "titles")) {
                for title in object(titleMembers, path: join(switchPath, "titles"), allowed: titleMembers.map(\.key)).sorted(by: { $0.key < $1.key }) {
                    if let text = string(title.value, path: join(join(switchPath, "titles"), title.key)) { change.titles[title.key] = text }
                }
            }
            changes.append(change)
        }
        return changes
    }
}
