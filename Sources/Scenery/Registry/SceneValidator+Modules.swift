/// The checks of each module instance: its parameters and their values, plurals, owner-only
/// actions, and what it may show to whom.
extension SceneValidator {
    mutating func check(_ instance: ModuleInstance, parameters: [String: ParameterSpec]) {
        let file = instance.file
        let path = instance.path
        /// Where a parameter is written: the instance, or the "params" change that set it.
        func place(of name: String) -> (file: String, path: String) {
            instance.parameterOrigins[name].map { ($0.file, $0.path) } ?? (file, "\(path).params.\(name)")
        }
        guard let descriptor = registry.registrations[instance.type]?.descriptor else {
            // Declared in Swift, its manifest not yet generated: its own checks wait for it.
            if !registry.modulesDeclaredInSwiftOnly.contains(instance.type) {
                let hint = Suggestion.hint(for: instance.type, in: Array(registry.registrations.keys), listing: "registered types")
                error("Unknown module type '\(instance.type)'\(hint).", file: file, path: "\(path).type")
            }
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

    mutating func checkValue(
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
    mutating func checkPlurals(of message: Message, named name: String, moduleType: String, file: String, path: String) {
        let rules = PluralRules(for: language)
        for (argument, missing) in message.missingPluralCategories(for: rules) {
            let cases = missing.map { "\($0.rawValue) {…}" }.joined(separator: " ")
            error(
                "'\(name)' of \(moduleType) has a plural of {\(argument)} without the case\(missing.count == 1 ? "" : "s") \(missing.map(\.rawValue).joined(separator: ", ")), which \(language) needs (CLDR plural rules); add \(cases).",
                file: file, path: path)
        }
    }

    /// The position of a character of a string value (see `SourcePosition.movedTo(character:ofStringIn:)`).
    func location(_ file: String, _ path: String, character offset: Int?) -> SourcePosition? {
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
    mutating func checkActionOwners(of instance: ModuleInstance) {
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
    mutating func checkPrivacy(of instance: ModuleInstance, in variant: ResolvedVariant) {
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
}
