/// The checks of a scene's experiments and variants: reachable, named, laid out.
extension SceneValidator {
    /// Every arm is checked as a variant is, over each variant it can apply to (or the one it
    /// extends), with the experiment's condition: an arm cannot show a private module to
    /// someone who may not see it. Two experiments may not both rearrange the page.
    mutating func checkExperiments(of scene: ResolvedScene, parameters: [String: ParameterSpec], emitted: Set<String>?) {
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

    mutating func checkReachability(_ variant: ResolvedVariant, after earlier: [ResolvedVariant]) {
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

    func normalized(_ source: String?) -> String? {
        source.map { String(decoding: $0.utf8.filter { $0 != 0x20 && $0 != 0x09 && $0 != 0x0A && $0 != 0x0D }, as: UTF8.self) }
    }

    mutating func checkNames(in condition: Condition, parameters: [String: ParameterSpec], file: String, path: String) {
        for name in condition.parameterNames where parameters[name] == nil {
            error(
                "The condition names '\(name)', which is not a parameter of this scene\(Suggestion.didYouMean(name, in: Array(parameters.keys) + ["viewer"])); declare it in \"parameters\" or use viewer.",
                file: file, path: path)
        }
    }

    mutating func checkLayout(_ variant: ResolvedVariant) {
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

    mutating func checkPlacement(_ id: ModuleID, present: Set<ModuleID>, placed: inout Set<ModuleID>, file: String, path: String) {
        if !present.contains(id) {
            error(
                "The layout places '\(id)', which is not a module of this variant\(Suggestion.didYouMean(id.rawValue, in: present.map(\.rawValue))).",
                file: file, path: path)
        } else if !placed.insert(id).inserted {
            error("The layout places '\(id)' twice; place each module once.", file: file, path: path)
        }
    }

    /// The layout as written for a variant: its own, or the nearest scene's in the chain.
    func declaredLayout(of variant: ResolvedVariant) -> (String, String, [LayoutItem]?) {
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
}
