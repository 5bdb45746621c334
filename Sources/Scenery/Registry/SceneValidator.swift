/// Checks every scene against the registered module types and the other scenes, and
/// collects every problem in one pass.
struct SceneValidator {
    let registry: SceneRegistry
    private var problems: [String: [Diagnostic]] = [:]
    private var checked: Set<String> = []
    private let definitionsByFile: [String: SceneDefinition]
    private let sceneIDs: [String]
    private let sceneIDSet: Set<String>
    /// Resolved parameters of navigation targets, computed once each.
    private var targetParameters: [String: [ParameterSpec]?] = [:]
    /// Scene bases resolved so far: each scene of an `extends` chain is applied once.
    private(set) var resolutions = ResolutionMemo()
    /// Every scene validated, resolved: what the catalog validator reads after it.
    private(set) var resolvedScenes: [String: ResolvedScene] = [:]
    /// The language of the scene being validated, whose plural rules its messages must meet.
    private var language = "en"

    /// A validator of the registry's scenes. It keeps its own copy of the registry, detached
    /// from the registry's validation cache (which may keep this validator).
    init(registry: SceneRegistry) {
        self.registry = registry.detachedFromValidation
        var byFile: [String: SceneDefinition] = [:]
        // A scene replaced by one that extends it may come from a file of the same name (an
        // app's Scenes/user-profile.json over the bundled one): the visible scene wins.
        let replaced = Set(registry.replacedScenes.values)
        for definition in registry.definitions.values.sorted(by: { replaced.contains($0.id) && !replaced.contains($1.id) }) {
            byFile[definition.file] = definition
        }
        definitionsByFile = byFile
        sceneIDs = registry.sceneIDs
        sceneIDSet = Set(sceneIDs)
    }

    /// Problems by scene id. A problem in an inherited part is reported once, with the
    /// scene whose file contains it.
    mutating func validateAll() -> [String: [Diagnostic]] {
        for id in registry.definitions.keys.sorted() { validate(id) }
        return problems
    }

    /// The problems of one scene's own file, found by validating that scene alone.
    mutating func validate(only sceneID: String) -> [Diagnostic] {
        validate(sceneID)
        return problems[sceneID] ?? []
    }

    private mutating func report(_ diagnostic: Diagnostic) {
        let key = "\(diagnostic.file)|\(diagnostic.path)|\(diagnostic.message)"
        guard checked.insert(key).inserted else { return }
        let sceneID = definitionsByFile[diagnostic.file]?.id ?? ""
        problems[sceneID, default: []].append(diagnostic)
    }

    private func location(_ file: String, _ path: String) -> SourcePosition? {
        definitionsByFile[file]?.location(of: path)
    }

    private mutating func error(_ message: String, file: String, path: String) {
        report(Diagnostic(.error, message, file: file, location: location(file, path), path: path))
    }

    private mutating func warning(_ message: String, file: String, path: String) {
        report(Diagnostic(.warning, message, file: file, location: location(file, path), path: path))
    }

    private mutating func validate(_ sceneID: String) {
        language = registry.language(of: sceneID) ?? "en"
        var resolutionProblems: [Diagnostic] = []
        let resolved: ResolvedScene
        do {
            resolved = try registry.resolve(sceneID, problems: &resolutionProblems, memo: &resolutions)
            resolvedScenes[sceneID] = resolved
        } catch {
            for problem in resolutionProblems { report(problem) }
            return
        }
        for problem in resolutionProblems { report(problem) }

        let parameters = Dictionary(resolved.parameters.map { ($0.name, $0) }, uniquingKeysWith: { _, last in last })
        var emitted: Set<String> = []
        // The payload keys of each event whose every sender declares them (typed events).
        var payloads: [String: Set<String>] = [:]
        var untyped: Set<String> = []
        // A module of an unknown type (already an error) may send anything: the rules are not
        // checked against what the others send, so one typo does not cascade.
        var hasUnknownType = false
        for variant in resolved.variants {
            for instance in variant.modules {
                guard let descriptor = registry.registrations[instance.type]?.descriptor else {
                    hasUnknownType = true
                    continue
                }
                emitted.formUnion(descriptor.events)
                for event in descriptor.events {
                    if let keys = descriptor.payloadKeys[event] { payloads[event, default: []].formUnion(keys) } else { untyped.insert(event) }
                }
            }
        }
        for event in untyped { payloads[event] = nil }

        var earlier: [ResolvedVariant] = []
        for variant in resolved.variants {
            if !variant.path.isEmpty {
                checkReachability(variant, after: earlier)
                if let condition = variant.condition {
                    checkNames(in: condition, parameters: parameters, file: variant.file, path: "\(variant.path).when")
                }
                earlier.append(variant)
            }
            for instance in variant.modules {
                check(instance, parameters: parameters)
                checkPrivacy(of: instance, in: variant)
                checkActionOwners(of: instance)
                checkEventsAreHandled(from: instance, in: variant)
            }
            checkLayout(variant)
            for rule in variant.rules {
                check(
                    rule, parameters: parameters, emitted: hasUnknownType ? nil : emitted,
                    payloadKeys: rule.on.hasSuffix("*") || hasUnknownType ? nil : payloads[rule.on])
            }
        }
        checkExperiments(of: resolved, parameters: parameters, emitted: hasUnknownType ? nil : emitted)
    }

    // MARK: Experiments

    /// Every arm is checked as a variant is, over each variant it can apply to (or the one it
    /// extends), with the experiment's condition: an arm cannot show a private module to
    /// someone who may not see it. Two experiments may not both rearrange the page.
    private mutating func checkExperiments(of scene: ResolvedScene, parameters: [String: ParameterSpec], emitted: Set<String>?) {
        var rearranging: ResolvedExperiment?
        for experiment in scene.experiments {
            let declared = experiment.experiment
            if let condition = declared.condition {
                checkNames(in: condition, parameters: parameters, file: declared.file, path: "\(declared.path).when")
            }
            if let arm = declared.arms.first(where: \.replacesLayout) {
                let key = arm.changes.layout != nil ? "layout" : "extends"
                if let earlier = rearranging {
                    error(
                        "The arm '\(arm.name)' of '\(declared.name)' replaces the page's layout, as an arm of '\(earlier.experiment.name)' does; one person can be in both, and only one layout can apply. Run them one after the other, or as one experiment with more arms.",
                        file: arm.changes.file, path: "\(arm.changes.path).\(key)")
                } else {
                    rearranging = experiment
                }
            }
            for arm in declared.arms {
                let bases = arm.changes.extends == nil ? scene.variants : Array(scene.variants.prefix(1))
                for base in bases {
                    var problems: [Diagnostic] = []
                    let variant = registry.variant(of: arm, in: experiment, over: base, of: scene, problems: &problems)
                    for problem in problems { report(problem) }
                    for instance in variant.modules {
                        check(instance, parameters: parameters)
                        checkPrivacy(of: instance, in: variant)
                        checkActionOwners(of: instance)
                        checkEventsAreHandled(from: instance, in: variant)
                    }
                    if arm.changes.layout != nil { checkLayout(variant) }
                    for rule in arm.changes.events {
                        check(rule, parameters: parameters, emitted: emitted, payloadKeys: nil)
                    }
                }
            }
        }
    }

    // MARK: Variants

    private mutating func checkReachability(_ variant: ResolvedVariant, after earlier: [ResolvedVariant]) {
        if let always = earlier.first(where: { $0.condition == nil }) {
            error(
                "The variant '\(variant.name)' is unreachable: '\(always.name)' comes before it and always applies; move '\(variant.name)' up or give '\(always.name)' a \"when\".",
                file: variant.file, path: variant.path)
        } else if let condition = variant.condition,
            let twin = earlier.first(where: { normalized($0.condition?.source) == normalized(condition.source) })
        {
            error(
                "The variant '\(variant.name)' is unreachable: '\(twin.name)' comes before it with the same condition '\(condition.source)'; merge them or change one condition.",
                file: variant.file, path: "\(variant.path).when")
        }
    }

    private func normalized(_ source: String?) -> String? {
        source.map { String(decoding: $0.utf8.filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }, as: UTF8.self) }
    }

    private mutating func checkNames(in condition: Condition, parameters: [String: ParameterSpec], file: String, path: String) {
        for name in condition.parameterNames where parameters[name] == nil {
            error(
                "The condition names '\(name)', which is not a parameter of this scene\(Suggestion.didYouMean(name, in: Array(parameters.keys) + ["viewer"])); declare it in \"parameters\" or use viewer.",
                file: file, path: path)
        }
    }

    private mutating func checkLayout(_ variant: ResolvedVariant) {
        // Layout references to absent modules were dropped by resolution; find them in the
        // declared layout to report them where they are written.
        let present = Set(variant.modules.map(\.id))
        let (file, basePath, declared) = declaredLayout(of: variant)
        guard let declared else { return }
        var placed: Set<ModuleID> = []
        for (index, item) in declared.enumerated() {
            let itemPath = "\(basePath)[\(index)]"
            switch item {
            case .module(let id):
                checkPlacement(id, present: present, placed: &placed, file: file, path: itemPath)
            case .tabs(let switchID, let tabs):
                if present.contains(ModuleID(switchID)) {
                    error("The tab switch id '\(switchID)' is also a module id; give the switch another \"id\".", file: file, path: "\(itemPath).id")
                }
                for (tabIndex, tab) in tabs.enumerated() {
                    for (moduleIndex, id) in tab.modules.enumerated() {
                        checkPlacement(id, present: present, placed: &placed, file: file, path: "\(itemPath).tabs[\(tabIndex)].modules[\(moduleIndex)]")
                    }
                }
            }
        }
    }

    private mutating func checkPlacement(_ id: ModuleID, present: Set<ModuleID>, placed: inout Set<ModuleID>, file: String, path: String) {
        if !present.contains(id) {
            error(
                "The layout places '\(id)', which is not a module of this variant\(Suggestion.didYouMean(id.rawValue, in: present.map(\.rawValue))).",
                file: file, path: path)
        } else if !placed.insert(id).inserted {
            error("The layout places '\(id)' twice; place each module once.", file: file, path: path)
        }
    }

    /// The layout as written for a variant: its own, or the nearest scene's in the chain.
    private func declaredLayout(of variant: ResolvedVariant) -> (String, String, [LayoutItem]?) {
        // A variant's own layout (or one a variant it extends wrote), as resolution found it.
        if let declared = variant.declaredLayout { return (declared.file, declared.path, declared.items) }
        // The base layout: the first definition up the chain that declares one.
        var definition = definitionsByFile[variant.file]
        var hops = 0
        while let current = definition, hops < 64 {
            if let layout = current.layout { return (current.file, "layout", layout) }
            definition = current.extends.flatMap { registry.definitions[$0] }
            hops += 1
        }
        return (variant.file, "layout", nil)
    }

    // MARK: Modules

    private mutating func check(_ instance: ModuleInstance, parameters: [String: ParameterSpec]) {
        let file = instance.file
        let path = instance.path
        /// Where a parameter is written: the instance, or the "params" change that set it.
        func place(of name: String) -> (file: String, path: String) {
            instance.parameterOrigins[name].map { ($0.file, $0.path) } ?? (file, "\(path).params.\(name)")
        }
        guard let descriptor = registry.registrations[instance.type]?.descriptor else {
            let hint = Suggestion.hint(for: instance.type, in: Array(registry.registrations.keys), listing: "registered types")
            error("Unknown module type '\(instance.type)'\(hint).", file: file, path: "\(path).type")
            for (name, value) in instance.parameters {
                let (valueFile, valuePath) = place(of: name)
                checkReferences(in: value, parameters: parameters, file: valueFile, path: valuePath, inEventRule: false)
            }
            return
        }
        for name in instance.parameters.keys.sorted() where descriptor.parameter(named: name) == nil {
            let hint = Suggestion.hint(for: name, in: descriptor.parameters.map(\.name), listing: "parameters")
            let (nameFile, namePath) = place(of: name)
            error("\(descriptor.type) has no parameter '\(name)'\(hint).", file: nameFile, path: namePath)
        }
        for spec in descriptor.parameters {
            let (paramFile, paramPath) = place(of: spec.name)
            guard let value = instance.parameters[spec.name] else {
                if spec.isRequired {
                    error(
                        "\(descriptor.type) needs the parameter '\(spec.name)' (\(spec.type.phrase)); add it to \"params\".", file: file, path: "\(path).params"
                    )
                }
                continue
            }
            checkValue(value, for: spec, moduleType: descriptor.type, parameters: parameters, file: paramFile, path: paramPath)
        }
    }

    private mutating func checkValue(
        _ value: JSONValue, for spec: ParameterSpec, moduleType: String, parameters: [String: ParameterSpec], file: String, path: String
    ) {
        if case .string(let text) = value, text.utf8.contains(UInt8(ascii: "$")), let template = try? Template(parsing: text, allowsEventFields: false) {
            let allKnown = checkReferences(in: value, parameters: parameters, file: file, path: path, inEventRule: false)
            guard allKnown else { return }
            if let reference = template.wholeReference {
                let sourceType: ParameterType
                switch reference {
                case .viewer: sourceType = .userID
                case .parameter(let name):
                    guard let declared = parameters[name] else { return }
                    sourceType = declared.type
                case .eventField: return
                }
                if !Self.isCompatible(sourceType, with: spec.type) {
                    error(
                        "'\(spec.name)' of \(moduleType) must be \(spec.type.phrase), but '\(text)' is \(sourceType.phrase).",
                        file: file, path: path)
                }
            } else if !template.references.isEmpty, spec.type != .string {
                error("'\(spec.name)' of \(moduleType) must be \(spec.type.phrase); text with references is a string.", file: file, path: path)
            }
            return
        }
        if spec.type.coerce(value) == nil {
            error("'\(spec.name)' of \(moduleType) must be \(spec.type.phrase), not \(value.kindDescription).", file: file, path: path)
        } else if let text = value.stringValue, let problem = spec.messageProblem(in: text) {
            report(
                Diagnostic(.error, "\(moduleType): \(problem.reason).", file: file, location: location(file, path, character: problem.offset), path: path))
        } else if let problem = spec.restrictionProblem(value) {
            error("\(moduleType): \(problem).", file: file, path: path)
        } else if spec.messageArguments != nil, let text = value.stringValue, let message = try? Message.parsed(text) {
            checkPlurals(of: message, named: spec.name, moduleType: moduleType, file: file, path: path)
        }
    }

    /// A message's plurals must have a case for every category the scene's language needs.
    private mutating func checkPlurals(of message: Message, named name: String, moduleType: String, file: String, path: String) {
        let rules = PluralRules(for: language)
        for (argument, missing) in message.missingPluralCategories(for: rules) {
            let cases = missing.map { "\($0.rawValue) {…}" }.joined(separator: " ")
            error(
                "'\(name)' of \(moduleType) has a plural of {\(argument)} without the case\(missing.count == 1 ? "" : "s") \(missing.map(\.rawValue).joined(separator: ", ")), which \(language) needs (CLDR plural rules); add \(cases).",
                file: file, path: path)
        }
    }

    /// The position of a character of a string value (see ``SourcePosition/movedTo(character:ofStringIn:)``).
    private func location(_ file: String, _ path: String, character offset: Int?) -> SourcePosition? {
        guard let start = location(file, path) else { return nil }
        guard let offset, let sceneID = definitionsByFile[file]?.id, let source = registry.source(of: sceneID) else { return start }
        return start.movedTo(character: offset, ofStringIn: Array(source.utf8))
    }

    /// Whether a value of one parameter type can be handed to a parameter of another.
    static func isCompatible(_ source: ParameterType, with target: ParameterType) -> Bool {
        source == target || (source == .int && target == .double) || (source == .userID && target == .string)
            || (source == .string && target == .userID) || (source == .int && target == .userID)
    }

    /// An owner-only action's owner is a `userID` parameter the module declares, so that the
    /// router can tell who may take it; the instance should give it (else nobody may).
    private mutating func checkActionOwners(of instance: ModuleInstance) {
        guard let descriptor = registry.registrations[instance.type]?.descriptor else { return }
        for (event, parameter) in descriptor.ownerOnlyActions.sorted(by: { $0.key < $1.key }) {
            guard let spec = descriptor.parameter(named: parameter), spec.type == .userID else {
                error(
                    "\(descriptor.type) declares '\(event)' an owner-only action of the parameter '\(parameter)', which it does not declare as a userID parameter; fix the module's descriptor (ownerOnlyActions).",
                    file: instance.file, path: instance.path)
                continue
            }
            if instance.parameters[parameter] == nil, spec.defaultValue == nil {
                warning(
                    "\(descriptor.type) '\(instance.id)' gives no '\(parameter)', so nobody may take its owner-only action '\(event)'; give \"\(parameter)\": \"$viewer\" or a scene parameter.",
                    file: instance.file, path: instance.path)
            }
        }
    }

    /// An owner-only module may appear only where the viewer must be its owner.
    private mutating func checkPrivacy(of instance: ModuleInstance, in variant: ResolvedVariant) {
        guard let descriptor = registry.registrations[instance.type]?.descriptor,
            let ownerParameter = descriptor.ownerOnlyParameter
        else { return }
        let value = instance.parameters[ownerParameter]
        let template = value?.stringValue.flatMap { try? Template(parsing: $0, allowsEventFields: false) }
        switch template?.wholeReference {
        case .viewer?:
            return  // the viewer's own data: always theirs
        case .parameter(let name)?:
            if variant.condition?.requiresViewer(equalTo: name) == true { return }
            let place =
                if let arm = variant.arm {
                    "the arm '\(arm.arm)' of the experiment '\(arm.experiment)' (over the variant '\(arm.over)'), whose people are not all \(name)"
                } else if variant.path.isEmpty {
                    "the scene's base modules, which apply to every viewer"
                } else {
                    "the variant '\(variant.name)', whose condition does not ensure viewer == \(name)"
                }
            // A variant that builds on another's modules from a file of its own (a child scene
            // widening "when"), or an arm that takes a module to more people, is where the
            // leak is written: report it there.
            let atVariant =
                variant.arm != nil
                ? !instance.path.hasPrefix(variant.path) : !variant.path.isEmpty && variant.file != instance.file
            if variant.arm != nil && atVariant {
                error(
                    "\(descriptor.type) '\(instance.id)' shows private data of '$\(name)' but is in \(place); give the experiment \"when\": \"viewer == \(name)\", or do not extend a variant that shows it.",
                    file: variant.file, path: variant.path)
                return
            }
            error(
                "\(descriptor.type) '\(instance.id)' shows private data of '$\(name)' but is in \(place); move it into a variant with \"when\": \"viewer == \(name)\".",
                file: atVariant ? variant.file : instance.file, path: atVariant ? variant.path : instance.path)
        default:
            error(
                "\(descriptor.type) '\(instance.id)' shows private data, so its '\(ownerParameter)' must be \"$viewer\" or a scene parameter the variant's condition matches to the viewer.",
                file: instance.file, path: "\(instance.path).params.\(ownerParameter)")
        }
    }

    // MARK: Event rules

    /// Every event a module lets bubble ends somewhere: a rule of the variant, the module's
    /// own default action, or a host event the app declared. One that ends nowhere is a
    /// control that does nothing: a warning at the module.
    private mutating func checkEventsAreHandled(from instance: ModuleInstance, in variant: ResolvedVariant) {
        guard let descriptor = registry.registrations[instance.type]?.descriptor else { return }
        for event in descriptor.events.subtracting(descriptor.defaultActions).sorted()
        where !registry.hostEvents.contains(event) && !variant.rules.contains(where: { $0.matches(event) }) {
            let place = variant.path.isEmpty ? "this scene" : "the variant '\(variant.name)'"
            report(
                Diagnostic(
                    .warning,
                    "\(descriptor.type) '\(instance.id)' sends '\(event)', which no event rule of \(place) handles and the host does not declare; add a rule (\"on\": \"\(event)\") or declare it with SceneRegistry.declareHostEvents.",
                    file: instance.file, location: location(instance.file, "\(instance.path).type"), path: "\(instance.path).type"))
        }
    }

    /// `payloadKeys`: the keys of the rule's event payload when every module that sends it
    /// declares them; `$event.key` and `event.key` must name one.
    /// `emitted`: the events the scene's modules send, `nil` when a module's type is unknown.
    private mutating func check(_ rule: EventRule, parameters: [String: ParameterSpec], emitted: Set<String>?, payloadKeys: Set<String>?) {
        let file = rule.file
        let path = rule.path
        let isBuiltIn = SceneEvents.isBuiltIn(rule.on)
        if !isBuiltIn, let emitted {
            let matched = rule.on.hasSuffix("*") ? emitted.contains { rule.matches($0) } : emitted.contains(rule.on)
            if !matched {
                let list = emitted.isEmpty ? "no module here emits events" : "events emitted here: \(emitted.sorted().joined(separator: ", "))"
                error(
                    "No module in this scene emits '\(rule.on)'\(Suggestion.didYouMean(rule.on, in: emitted)), so the rule never applies (\(list)).",
                    file: file, path: "\(path).on")
            }
        }
        if let condition = rule.condition {
            checkNames(in: condition, parameters: parameters, file: file, path: "\(path).when")
            if let payloadKeys {
                for name in condition.eventFieldNames where !payloadKeys.contains(name) {
                    error(unknownField("event.\(name)", name, of: rule.on, keys: payloadKeys), file: file, path: "\(path).when")
                }
            }
        }
        for (index, step) in rule.steps.enumerated() {
            let stepPath = definitionsByFile[file]?.sourceMap["\(path).steps"] != nil ? "\(path).steps[\(index)]" : path
            switch step {
            case .confirm(let template):
                let confirmPath = stepPath == path ? "\(path).confirm" : "\(stepPath).confirm"
                let fields = [("title", template.title), ("message", template.message), ("confirm", template.confirmLabel), ("cancel", template.cancelLabel)]
                for case (let key, let text?) in fields {
                    // Each text at its own place when the file has it (a default label has none).
                    let textPath = location(file, "\(confirmPath).\(key)") == nil ? confirmPath : "\(confirmPath).\(key)"
                    checkReferences(in: .string(text), parameters: parameters, file: file, path: textPath, inEventRule: true, event: (rule.on, payloadKeys))
                }
            case .navigate(let scene, let arguments):
                let navigatePath = stepPath == path ? "\(path).navigate" : "\(stepPath).navigate"
                checkNavigation(to: scene, arguments: arguments, parameters: parameters, file: file, path: navigatePath, event: (rule.on, payloadKeys))
            case .block, .continue:
                break
            }
        }
    }

    /// The message for a payload field the event does not declare.
    private func unknownField(_ written: String, _ field: String, of event: String, keys: Set<String>) -> String {
        let listed = keys.isEmpty ? "it has no payload" : "its payload has \(keys.sorted().joined(separator: ", "))"
        return "'\(written)' is not a field of '\(event)'\(Suggestion.didYouMean(field, in: keys)): \(listed)."
    }

    /// Reports `$references` to undeclared scene parameters (and, in an event rule whose
    /// payload is declared, to fields it does not have); returns whether all are known.
    @discardableResult
    private mutating func checkReferences(
        in value: JSONValue, parameters: [String: ParameterSpec], file: String, path: String, inEventRule: Bool,
        event: (name: String, keys: Set<String>?)? = nil
    ) -> Bool {
        switch value {
        case .string(let text) where text.utf8.contains(UInt8(ascii: "$")):
            guard let template = try? Template(parsing: text, allowsEventFields: inEventRule) else { return false }
            var allKnown = true
            for (reference, offset) in template.references {
                if case .eventField(let field) = reference, let event, let keys = event.keys, !keys.contains(field) {
                    allKnown = false
                    let place = location(file, path).map { SourcePosition(line: $0.line, column: $0.column + 1 + offset) }
                    report(Diagnostic(.error, unknownField("$event.\(field)", field, of: event.name, keys: keys), file: file, location: place, path: path))
                    continue
                }
                guard case .parameter(let name) = reference, parameters[name] == nil else { continue }
                allKnown = false
                let alternative = inEventRule ? " or use $event.\(name) for a payload field" : ""
                // Point at the '$' itself (exact unless the string has escapes before it).
                let place = location(file, path).map { SourcePosition(line: $0.line, column: $0.column + 1 + offset) }
                report(
                    Diagnostic(
                        .error,
                        "'$\(name)' is not a parameter of this scene\(Suggestion.didYouMean(name, in: Array(parameters.keys) + ["viewer"])); declare it in \"parameters\"\(alternative).",
                        file: file, location: place, path: path))
            }
            return allKnown
        case .array(let values):
            return values.map { checkReferences(in: $0, parameters: parameters, file: file, path: path, inEventRule: inEventRule, event: event) }
                .allSatisfy { $0 }
        case .object(let members):
            return members.sorted { $0.key < $1.key }
                .map {
                    checkReferences(in: $0.value, parameters: parameters, file: file, path: "\(path).\($0.key)", inEventRule: inEventRule, event: event)
                }
                .allSatisfy { $0 }
        default:
            return true
        }
    }

    private mutating func checkNavigation(
        to scene: String, arguments: [String: JSONValue], parameters: [String: ParameterSpec], file: String, path: String,
        event: (name: String, keys: Set<String>?)
    ) {
        for (key, value) in arguments.sorted(by: { $0.key < $1.key }) {
            checkReferences(in: value, parameters: parameters, file: file, path: "\(path).args.\(key)", inEventRule: true, event: event)
        }
        guard sceneIDSet.contains(scene) else {
            error(
                "The rule navigates to '\(scene)', which is not a scene\(Suggestion.didYouMean(scene, in: sceneIDs)); name an existing scene file without '.json'.",
                file: file, path: "\(path).scene")
            return
        }
        if targetParameters[scene] == nil {
            var ignored: [Diagnostic] = []  // reported when the target itself is validated
            targetParameters[scene] = .some((try? registry.resolve(scene, problems: &ignored, memo: &resolutions))?.parameters)
        }
        guard let parameters = targetParameters[scene] ?? nil else { return }
        for key in arguments.keys.sorted() where !parameters.contains(where: { $0.name == key }) {
            let hint = Suggestion.hint(for: key, in: parameters.map(\.name), listing: "parameters")
            error("'\(scene)' has no parameter '\(key)'\(hint).", file: file, path: "\(path).args.\(key)")
        }
        for spec in parameters where spec.isRequired && arguments[spec.name] == nil {
            error("'\(scene)' needs the argument '\(spec.name)'; add it to \"args\".", file: file, path: path)
        }
    }
}
