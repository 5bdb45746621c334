extension SceneRegistry {
    /// Applies `extends` and variants. Problems (unknown parents, cycles, removing what is
    /// not there) are appended to `problems`; resolution goes on past them where it can.
    func resolve(_ sceneID: String, problems: inout [Diagnostic]) throws(SceneryError) -> ResolvedScene {
        var memo = ResolutionMemo()
        return try resolve(sceneID, problems: &problems, memo: &memo)
    }

    /// Resolves a scene, reusing (and adding to) the bases of scenes resolved before. Costs
    /// the scenes of the chain not resolved yet, and each in time linear in its modules.
    func resolve(_ sceneID: String, problems: inout [Diagnostic], memo: inout ResolutionMemo) throws(SceneryError) -> ResolvedScene {
        guard let definition = definitions[sceneID] else {
            throw SceneryError(
                .unknownScene, "No scene '\(sceneID)' is registered\(Suggestion.hint(for: sceneID, in: sceneIDs, listing: "scenes")).")
        }
        let base = try resolvedBase(of: definition, problems: &problems, memo: &memo)
        var resolved: [ResolvedVariant] = base.variants.map { chain in
            var modules = base.modules
            var layout = base.layout
            var declaredLayout: (file: String, path: String, items: [LayoutItem])?
            var rules = base.rules
            for (variant, owner) in chain.steps {
                modules = apply(
                    remove: variant.remove, replace: variant.replace, add: variant.add, to: modules, file: variant.file, path: variant.path,
                    sceneFile: owner, problems: &problems)
                modules = apply(
                    variant.parameterChanges, to: modules, file: variant.file, path: "\(variant.path).params", sceneFile: owner, problems: &problems)
                modules = apply(variant.displayChanges, to: modules, file: variant.file, path: "\(variant.path).display", sceneFile: owner, problems: &problems)
                if let own = variant.layout {
                    layout = own
                    declaredLayout = (variant.file, "\(variant.path).layout", own)
                }
                layout = apply(variant.tabChanges, to: layout, modules: modules, file: variant.file, sceneFile: owner, problems: &problems)
                rules = variant.events + rules
            }
            let last = chain.steps[chain.steps.count - 1].variant
            for problem in placementProblems(of: modules) where !problems.contains(problem) { problems.append(problem) }
            return ResolvedVariant(
                name: chain.name, condition: chain.condition, modules: modules, layout: completeLayout(layout, modules: modules), rules: rules,
                file: last.file, path: last.path, declaredLayout: declaredLayout)
        }
        if !base.variants.contains(where: { $0.condition == nil }) {
            for problem in placementProblems(of: base.modules) where !problems.contains(problem) { problems.append(problem) }
            resolved.append(
                ResolvedVariant(
                    name: "default", condition: nil, modules: base.modules, layout: completeLayout(base.layout, modules: base.modules),
                    rules: base.rules, file: definition.file, path: ""))
        }
        return ResolvedScene(id: sceneID, parameters: base.parameters, variants: resolved, experiments: base.experiments)
    }

    /// The base of a scene: its chain of ancestors folded from the root down. Walks up to
    /// the first ancestor already in `memo` (no recursion, so a chain of any length is safe),
    /// then applies each scene below it once, keeping every base on the way.
    func resolvedBase(
        of definition: SceneDefinition, problems: inout [Diagnostic], memo: inout ResolutionMemo
    ) throws(SceneryError) -> ResolvedBase {
        var chain = [definition]  // from the scene up, stopping at a known base
        var seen: Set<String> = [definition.id]
        var start = ResolvedBase()
        var failure: ResolutionMemo.Failure?
        if let known = memo.bases[definition.id] {
            switch known {
            case .success(let base): return base
            case .failure(let reason): throw reason.error(for: definition.id)
            }
        }
        while let parent = chain.last?.extends {
            if let known = memo.bases[parent] {
                switch known {
                case .success(let base): start = base
                case .failure(let error): failure = error
                }
                break
            }
            let child = chain.last!
            guard parent != child.id else {
                problems.append(
                    Diagnostic(
                        .error,
                        "The scene '\(child.id)' extends its own id, which builds on the scene '\(child.id)' it replaces, and none was added before it; add the scenes it builds on first (registry.addBundledScenes() for Scenery's), or extend another scene.",
                        file: child.file, location: child.location(of: "extends"), path: "extends"))
                failure = .unknownAncestor
                break
            }
            guard let parentDefinition = definitions[parent] else {
                problems.append(
                    Diagnostic(
                        .error,
                        "The scene '\(child.id)' extends '\(parent)', which is not a scene\(Suggestion.didYouMean(parent, in: sceneIDs.filter { $0 != child.id })); name an existing scene file without '.json'.",
                        file: child.file, location: child.location(of: "extends"), path: "extends"))
                failure = .unknownAncestor
                break
            }
            guard seen.insert(parent).inserted else {
                // Each scene on the cycle gets the error at its own "extends", the cycle
                // named from itself.
                let start = chain.firstIndex { $0.id == parent } ?? 0
                let cycle = Array(chain[start...])
                for (position, scene) in cycle.enumerated() {
                    let names = (cycle[position...] + cycle[..<position]).map(\.id) + [scene.id]
                    // Long cycles are shown by their ends, so the message stays short.
                    let shown = names.count <= 8 ? names.joined(separator: " → ") : (names.prefix(4) + ["…"] + names.suffix(3)).joined(separator: " → ")
                    problems.append(
                        Diagnostic(
                            .error, "'extends' forms a cycle (\(shown)); a scene cannot extend itself through its parents.",
                            file: scene.file, location: scene.location(of: "extends"), path: "extends"))
                }
                failure = .cycle
                break
            }
            chain.append(parentDefinition)
        }
        if let failure {
            // Every scene on the way inherits the failure.
            for scene in chain { memo.bases[scene.id] = .failure(failure) }
            throw failure.error(for: definition.id)
        }
        var base = start
        for scene in chain.reversed() {
            memo.appliedDefinitions += 1
            for parameter in scene.parameters {
                base.parameters.removeAll { $0.name == parameter.name }
                base.parameters.append(parameter)
            }
            base.modules = apply(
                remove: scene.remove, replace: scene.replace, add: scene.modules, to: base.modules,
                file: scene.file, path: "", sceneFile: scene, problems: &problems)
            base.modules = apply(scene.parameterChanges, to: base.modules, file: scene.file, path: "params", sceneFile: scene, problems: &problems)
            base.layout = scene.layout ?? base.layout
            base.rules = scene.events + base.rules
            if !scene.variants.isEmpty {
                base.variants = variants(declaredBy: scene, inheriting: base.variants, problems: &problems)
            }
            for experiment in scene.experiments {
                // A child scene redeclaring an experiment replaces it, in its place.
                let declared = ResolvedExperiment(experiment: experiment, owner: scene)
                if let index = base.experiments.firstIndex(where: { $0.experiment.name == experiment.name }) {
                    base.experiments[index] = declared
                } else {
                    base.experiments.append(declared)
                }
            }
            memo.bases[scene.id] = .success(base)
        }
        return base
    }

    /// Resolves a scene, ignoring problems (they are the validator's to report).
    func resolve(_ sceneID: String) throws(SceneryError) -> ResolvedScene {
        var ignored: [Diagnostic] = []
        return try resolve(sceneID, problems: &ignored)
    }

}
