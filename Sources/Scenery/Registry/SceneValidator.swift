/// Checks every scene against the registered module types and the other scenes, and
/// collects every problem in one pass.
struct SceneValidator {
    let registry: SceneRegistry
    var problems: [String: [Diagnostic]] = [:]
    var checked: Set<String> = []
    let definitionsByFile: [String: SceneDefinition]
    let sceneIDs: [String]
    let sceneIDSet: Set<String>
    /// Resolved parameters of navigation targets, computed once each.
    var targetParameters: [String: [ParameterSpec]?] = [:]
    /// Scene bases resolved so far: each scene of an `extends` chain is applied once.
    var resolutions = ResolutionMemo()
    /// Every scene validated, resolved: what the catalog validator reads after it.
    private(set) var resolvedScenes: [String: ResolvedScene] = [:]
    /// The language of the scene being validated, whose plural rules its messages must meet.
    var language = "en"

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

    mutating func report(_ diagnostic: Diagnostic) {
        let key = "\(diagnostic.file)|\(diagnostic.path)|\(diagnostic.message)"
        guard checked.insert(key).inserted else { return }
        let sceneID = definitionsByFile[diagnostic.file]?.id ?? ""
        problems[sceneID, default: []].append(diagnostic)
    }

    func location(_ file: String, _ path: String) -> SourcePosition? {
        definitionsByFile[file]?.location(of: path)
    }

    mutating func error(_ message: String, file: String, path: String) {
        report(Diagnostic(.error, message, file: file, location: location(file, path), path: path))
    }

    mutating func warning(_ message: String, file: String, path: String) {
        report(Diagnostic(.warning, message, file: file, location: location(file, path), path: path))
    }

    mutating func validate(_ sceneID: String) {
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

}
