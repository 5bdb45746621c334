/// Turns the text of one scene file into a ``SceneDefinition``, collecting every
/// structural problem (syntax, unknown keys, wrong types, bad conditions) in one pass.
///
/// Problems that need other files or the module registry are the validator's.
package struct SceneFileParser {
    let file: String
    let id: String
    package private(set) var diagnostics: [Diagnostic] = []
    private var sourceMap: [String: SourcePosition] = [:]

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

    static let sceneKeys = [
        "$schema", "format", "requires", "fallback", "title", "language", "extends", "parameters", "modules", "remove", "replace",
        "params", "layout", "variants", "experiments", "events",
    ]
    static let variantKeys = ["name", "extends", "when", "add", "remove", "replace", "params", "display", "layout", "tabs", "events"]
    static let experimentKeys = ["name", "when", "arms"]
    static let armKeys = ["name", "weight", "extends", "add", "remove", "replace", "params", "display", "layout", "tabs", "events"]
    static let moduleKeys = ["id", "type", "params", "timeout", "display", "transitions", "after", "before", "at"]
    static let ruleKeys = ["on", "when", "steps", "confirm", "navigate", "block"]

    /// `format`, `requires` and `fallback`.
    private mutating func requirements(_ fields: [String: SourceJSON.Node]) -> SceneRequirements {
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

    // MARK: - Building blocks

    mutating func error(_ message: String, at location: SourcePosition?, path: String) {
        diagnostics.append(Diagnostic(.error, message, file: file, location: location, path: path))
    }

    /// The members of an object by key, reporting unknown and duplicate keys.
    mutating func object(
        _ members: [SourceJSON.Member], path: String, allowed: [String]
    ) -> [String: SourceJSON.Node] {
        var fields: [String: SourceJSON.Node] = [:]
        for member in members {
            let memberPath = join(path, member.key)
            if fields[member.key] != nil {
                error("The key \"\(member.key)\" appears twice; keep one.", at: member.keyLocation, path: memberPath)
                continue
            }
            guard allowed.contains(member.key) else {
                let hint = Suggestion.hint(for: member.key, in: allowed.filter { $0 != "$schema" }, listing: "allowed keys")
                let place = path.isEmpty ? "a scene file" : "'\(path)'"
                error("Unknown key \"\(member.key)\" in \(place)\(hint).", at: member.keyLocation, path: memberPath)
                continue
            }
            sourceMap[memberPath] = member.value.location
            fields[member.key] = member.value
        }
        return fields
    }

    func join(_ path: String, _ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }

    private mutating func typeError(_ node: SourceJSON.Node, path: String, expected: String) {
        error("'\(path)' must be \(expected), not \(node.kindDescription).", at: node.location, path: path)
    }

    /// Whether text has the shape of a BCP 47 tag: subtags of 1–8 letters or digits joined by
    /// hyphens, the first of 2–8 letters.
    static func isLanguageTag(_ text: String) -> Bool {
        let subtags = text.split(separator: "-", omittingEmptySubsequences: false)
        guard let first = subtags.first, (2...8).contains(first.count), first.allSatisfy({ $0.isASCII && $0.isLetter }) else { return false }
        return subtags.dropFirst().allSatisfy { (1...8).contains($0.count) && $0.allSatisfy { $0.isASCII && ($0.isLetter || $0.isNumber) } }
    }

    mutating func string(_ node: SourceJSON.Node, path: String) -> String? {
        guard case .string(let text) = node.value else {
            typeError(node, path: path, expected: "a string")
            return nil
        }
        return text
    }

    private mutating func bool(_ node: SourceJSON.Node, path: String) -> Bool? {
        guard case .bool(let value) = node.value else {
            typeError(node, path: path, expected: "true or false")
            return nil
        }
        return value
    }

    mutating func objectMembers(_ node: SourceJSON.Node, path: String) -> [SourceJSON.Member]? {
        guard case .object(let members) = node.value else {
            typeError(node, path: path, expected: "an object")
            return nil
        }
        return members
    }

    private mutating func array(_ node: SourceJSON.Node, path: String) -> [SourceJSON.Node]? {
        guard case .array(let elements) = node.value else {
            typeError(node, path: path, expected: "an array")
            return nil
        }
        for (index, element) in elements.enumerated() { sourceMap["\(path)[\(index)]"] = element.location }
        return elements
    }

    private mutating func condition(_ node: SourceJSON.Node, path: String, allowsEventFields: Bool) -> Condition? {
        guard let text = string(node, path: path) else { return nil }
        do {
            return try Condition(parsing: text, allowsEventFields: allowsEventFields)
        } catch {
            self.error("Invalid condition: \(error.message)", at: offset(node.location, by: error.offset), path: path)
            return nil
        }
    }

    /// The location of a byte offset inside a string literal that starts at `location`.
    /// Exact when the string has no escapes before the offset.
    private func offset(_ location: SourcePosition, by offset: Int) -> SourcePosition {
        SourcePosition(line: location.line, column: location.column + 1 + offset)
    }

    /// Reports template syntax errors in every string of a value.
    private mutating func checkTemplates(_ node: SourceJSON.Node, path: String, allowsEventFields: Bool) {
        switch node.value {
        case .string(let text) where text.utf8.contains(UInt8(ascii: "$")):
            do {
                _ = try Template(parsing: text, allowsEventFields: allowsEventFields)
            } catch {
                self.error("Invalid reference: \(error.message)", at: offset(node.location, by: error.offset), path: path)
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                checkTemplates(element, path: "\(path)[\(index)]", allowsEventFields: allowsEventFields)
            }
        case .object(let members):
            for member in members {
                sourceMap[join(path, member.key)] = member.value.location
                checkTemplates(member.value, path: join(path, member.key), allowsEventFields: allowsEventFields)
            }
        default: break
        }
    }

    // MARK: - Sections

    private mutating func parameters(_ node: SourceJSON.Node, path: String) -> [ParameterSpec] {
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

    private mutating func moduleList(_ node: SourceJSON.Node, path: String) -> [ModuleInstance] {
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

    private mutating func moduleInstance(_ node: SourceJSON.Node, path: String) -> ModuleInstance? {
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
    private mutating func placement(_ fields: [String: SourceJSON.Node], path: String) -> ModuleInstance.Placement? {
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
    private mutating func display(_ node: SourceJSON.Node, path: String) -> ViewNode.ListLayout? {
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

    private func isValidID(_ id: String) -> Bool {
        !id.isEmpty && id.utf8.count <= 128
            && id.unicodeScalars.allSatisfy { ($0.isASCII && ($0.properties.isAlphabetic || ("0"..."9").contains($0))) || $0 == "-" || $0 == "_" || $0 == "." }
    }

    private mutating func idList(_ node: SourceJSON.Node, path: String) -> [ModuleID] {
        guard let elements = array(node, path: path) else { return [] }
        return elements.enumerated().compactMap { index, element in
            string(element, path: "\(path)[\(index)]").map { ModuleID($0) }
        }
    }

    private mutating func layout(_ node: SourceJSON.Node, path: String) -> [LayoutItem]? {
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
    private mutating func tab(_ node: SourceJSON.Node, path: String) -> TabSpec? {
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
    private mutating func parameterValues(_ members: [SourceJSON.Member], path: String) -> [String: JSONValue] {
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
    private mutating func parameterChanges(_ node: SourceJSON.Node, path: String) -> [ModuleID: [String: JSONValue]] {
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
    private mutating func tabChanges(_ node: SourceJSON.Node, path: String) -> [TabChange] {
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

    private mutating func variants(_ node: SourceJSON.Node, path: String) -> [Variant] {
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
    private mutating func changes(_ fields: [String: SourceJSON.Node], path: String, into variant: inout Variant) {
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
    private mutating func experiments(_ node: SourceJSON.Node, path: String) -> [Experiment] {
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
    private mutating func weight(_ node: SourceJSON.Node?, arm: String, at armLocation: SourcePosition?, path: String) -> Double? {
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

    private mutating func eventRules(_ node: SourceJSON.Node, path: String) -> [EventRule] {
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

    private mutating func step(_ node: SourceJSON.Node, path: String) -> EventRule.Step? {
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

    private mutating func stepBody(key: String, value: SourceJSON.Node, path: String) -> EventRule.Step? {
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
