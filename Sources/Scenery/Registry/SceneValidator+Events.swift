/// The checks of the scene's event rules: each names an event a module emits, reads fields
/// the event carries, and navigates to a scene that exists with the arguments it needs.
extension SceneValidator {
    /// Every event a module lets bubble ends somewhere: a rule of the variant, the module's
    /// own default action, or a host event the app declared. One that ends nowhere is a
    /// control that does nothing: a warning at the module.
    mutating func checkEventsAreHandled(from instance: ModuleInstance, in variant: ResolvedVariant) {
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
    mutating func check(_ rule: EventRule, parameters: [String: ParameterSpec], emitted: Set<String>?, payloadKeys: Set<String>?) {
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
    func unknownField(_ written: String, _ field: String, of event: String, keys: Set<String>) -> String {
        let listed = keys.isEmpty ? "it has no payload" : "its payload has \(keys.sorted().joined(separator: ", "))"
        return "'\(written)' is not a field of '\(event)'\(Suggestion.didYouMean(field, in: keys)): \(listed)."
    }

    /// Reports `$references` to undeclared scene parameters (and, in an event rule whose
    /// payload is declared, to fields it does not have); returns whether all are known.
    @discardableResult
    mutating func checkReferences(
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

    mutating func checkNavigation(
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
