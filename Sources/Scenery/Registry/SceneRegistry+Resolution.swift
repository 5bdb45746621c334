/// A scene with `extends` applied and every variant turned into a concrete module list.
struct ResolvedScene: Sendable {
    var id: String
    var parameters: [ParameterSpec]
    /// The declared variants in order, then the scene's base (named "default") unless a
    /// declared variant always applies.
    var variants: [ResolvedVariant]
    /// The experiments run on the scene, its ancestors' first, each with the file declaring it.
    var experiments: [ResolvedExperiment] = []
}

/// One variant of a scene, ready to assemble.
struct ResolvedVariant: Sendable {
    var name: String
    var condition: Condition?
    var modules: [ModuleInstance]
    var layout: [LayoutItem]
    var rules: [EventRule]
    /// Where the variant was declared (empty for the base).
    var file: String
    var path: String
    /// The layout as a variant of its chain wrote it (before tab changes), and where: what
    /// the validator checks placements against. `nil`: the scene's base layout.
    var declaredLayout: (file: String, path: String, items: [LayoutItem])?
    /// For an experiment's arm made into a variant: the experiment, the arm, and the variant
    /// it was applied over (diagnostics name them).
    var arm: (experiment: String, arm: String, over: String)? = nil
}

/// A variant and the inherited variants it builds on (`"extends"`), oldest first, each with
/// the scene whose file declares it.
struct VariantChain: Sendable {
    var steps: [(variant: Variant, scene: SceneDefinition)]

    var name: String { steps[steps.count - 1].variant.name }
    /// The newest condition of the chain: a variant without `when` keeps the one it extends.
    var condition: Condition? { steps.last { $0.variant.condition != nil }?.variant.condition }
}

/// A scene with its ancestors applied, before its variants: what a child scene builds on.
/// Kept per scene while validating, so a chain of `extends` is resolved once, not once per
/// scene in it.
struct ResolvedBase: Sendable {
    var parameters: [ParameterSpec] = []
    var modules: [ModuleInstance] = []
    var layout: [LayoutItem]?
    var rules: [EventRule] = []
    var variants: [VariantChain] = []
    var experiments: [ResolvedExperiment] = []
}

/// Resolved bases by scene id (or the error that ended a scene's resolution), shared by the
/// resolutions of one validation.
struct ResolutionMemo: Sendable {
    /// Why a scene has no base.
    enum Failure: Error {
        case unknownAncestor, cycle

        func error(for sceneID: String) -> SceneryError {
            switch self {
            case .unknownAncestor: SceneryError(.invalidScene, "The scene '\(sceneID)' extends an unknown scene.")
            case .cycle: SceneryError(.invalidScene, "The scene '\(sceneID)' extends itself.")
            }
        }
    }

    var bases: [String: Result<ResolvedBase, Failure>] = [:]
    /// How many scene definitions were applied: a chain of n scenes costs n, not n².
    var appliedDefinitions = 0
}

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
    private func resolvedBase(
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

    /// Removes, replaces and adds modules: linear in the modules (an index by id, never a
    /// search per module).
    func apply(
        remove: [ModuleID], replace: [ModuleInstance], add: [ModuleInstance], to base: [ModuleInstance],
        file: String, path: String, sceneFile: SceneDefinition, problems: inout [Diagnostic]
    ) -> [ModuleInstance] {
        if remove.isEmpty && replace.isEmpty && add.isEmpty { return base }
        func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
        let addKey = path.isEmpty ? "modules" : "add"
        var modules = base
        var position = [ModuleID: Int](minimumCapacity: base.count + add.count)
        for (index, instance) in modules.enumerated() { position[instance.id] = index }
        if !remove.isEmpty {
            var removed = Set<ModuleID>()
            for (index, id) in remove.enumerated() {
                guard position[id] != nil else {
                    let p = "\(at("remove"))[\(index)]"
                    problems.append(
                        Diagnostic(
                            .error, "Cannot remove '\(id)': no such module here\(Suggestion.didYouMean(id.rawValue, in: modules.map(\.id.rawValue))).",
                            file: file, location: sceneFile.location(of: p), path: p))
                    continue
                }
                removed.insert(id)
            }
            if !removed.isEmpty {
                modules.removeAll { removed.contains($0.id) }
                position.removeAll(keepingCapacity: true)
                for (index, instance) in modules.enumerated() { position[instance.id] = index }
            }
        }
        for instance in replace {
            guard let index = position[instance.id] else {
                problems.append(
                    Diagnostic(
                        .error, "Cannot replace '\(instance.id)': no such module here; use \"\(addKey)\" to add a new module.",
                        file: file, location: sceneFile.location(of: "\(instance.path).id"), path: "\(instance.path).id"))
                continue
            }
            modules[index] = instance
        }
        for instance in add {
            guard position[instance.id] == nil else {
                problems.append(
                    Diagnostic(
                        .error, "Duplicate module id '\(instance.id)': the scene already has it; use \"replace\" to change it or choose another id.",
                        file: file, location: sceneFile.location(of: "\(instance.path).id"), path: "\(instance.path).id"))
                continue
            }
            position[instance.id] = modules.count
            modules.append(instance)
        }
        return modules
    }

    /// A scene's variants, given those it inherits. A variant that `extends` an inherited one
    /// builds on it. When every variant of the file extends one, the inherited variants are
    /// kept in their order with those changed; otherwise the file's list replaces them.
    private func variants(
        declaredBy scene: SceneDefinition, inheriting inherited: [VariantChain], problems: inout [Diagnostic]
    ) -> [VariantChain] {
        func chain(for variant: Variant) -> VariantChain {
            guard let parent = variant.extends else { return VariantChain(steps: [(variant, scene)]) }
            guard let inheritedChain = inherited.first(where: { $0.name == parent }) else {
                let names = inherited.map(\.name)
                let parentName = scene.extends.map { "'\($0)'" } ?? "no parent"
                let known = names.isEmpty ? "; \(parentName) has no variants to extend" : "; name one of its variants: \(names.joined(separator: ", "))"
                problems.append(
                    Diagnostic(
                        .error,
                        "The variant extends '\(parent)', which \(parentName) does not have\(Suggestion.didYouMean(parent, in: names))\(known).",
                        file: scene.file, location: scene.location(of: "\(variant.path).extends"), path: "\(variant.path).extends"))
                return VariantChain(steps: [(variant, scene)])
            }
            return VariantChain(steps: inheritedChain.steps + [(variant, scene)])
        }
        let declared = scene.variants.map(chain)
        guard scene.variants.allSatisfy({ $0.extends != nil }) else { return declared }
        var kept = inherited
        for (variant, changed) in zip(scene.variants, declared) {
            if let index = kept.firstIndex(where: { $0.name == variant.extends }) { kept[index] = changed }
        }
        return kept
    }

    /// Merges parameter changes over the modules' own parameters, remembering where each
    /// changed value is written (so a bad value is reported there).
    func apply(
        _ changes: [ModuleID: [String: JSONValue]], to modules: [ModuleInstance], file: String, path: String, sceneFile: SceneDefinition,
        problems: inout [Diagnostic]
    ) -> [ModuleInstance] {
        guard !changes.isEmpty else { return modules }
        var modules = modules
        for (id, values) in changes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            let changePath = "\(path).\(id)"
            guard let index = modules.firstIndex(where: { $0.id == id }) else {
                problems.append(
                    Diagnostic(
                        .error,
                        "Cannot change the parameters of '\(id)': no such module here\(Suggestion.didYouMean(id.rawValue, in: modules.map(\.id.rawValue))).",
                        file: file, location: sceneFile.location(of: changePath), path: changePath))
                continue
            }
            for (name, value) in values {
                modules[index].parameters[name] = value
                modules[index].parameterOrigins[name] = ParameterOrigin(file: file, path: "\(changePath).\(name)")
            }
        }
        return modules
    }

    /// Changes how modules lay out their lists (`"display"`), reporting a module that is not there.
    func apply(
        _ changes: [ModuleID: ViewNode.ListLayout], to modules: [ModuleInstance], file: String, path: String, sceneFile: SceneDefinition,
        problems: inout [Diagnostic]
    ) -> [ModuleInstance] {
        guard !changes.isEmpty else { return modules }
        var modules = modules
        for (id, display) in changes.sorted(by: { $0.key.rawValue < $1.key.rawValue }) {
            guard let index = modules.firstIndex(where: { $0.id == id }) else {
                let changePath = "\(path).\(id)"
                problems.append(
                    Diagnostic(
                        .error,
                        "Cannot change how '\(id)' is displayed: no such module here\(Suggestion.didYouMean(id.rawValue, in: modules.map(\.id.rawValue))).",
                        file: file, location: sceneFile.location(of: changePath), path: changePath))
                continue
            }
            modules[index].display = display
        }
        return modules
    }

    /// Adds tabs to tab switches and changes tab titles; a switch or tab that is not there,
    /// or an added tab whose id is taken, is reported at the change.
    func apply(
        _ changes: [TabChange], to layout: [LayoutItem]?, modules: [ModuleInstance], file: String, sceneFile: SceneDefinition,
        problems: inout [Diagnostic]
    ) -> [LayoutItem]? {
        guard !changes.isEmpty else { return layout }
        var items = layout ?? []
        for change in changes.sorted(by: { $0.switchID < $1.switchID }) {
            func report(_ message: String, at path: String) {
                problems.append(Diagnostic(.error, message, file: file, location: sceneFile.location(of: path), path: path))
            }
            let switches = items.compactMap { item -> String? in if case .tabs(let id, _) = item { id } else { nil } }
            guard let index = items.firstIndex(where: { if case .tabs(change.switchID, _) = $0 { true } else { false } }),
                case .tabs(let id, var tabs) = items[index]
            else {
                let known = switches.isEmpty ? "the layout has no tab switches" : "the layout's tab switches: \(switches.joined(separator: ", "))"
                report(
                    "There is no tab switch '\(change.switchID)' to change\(Suggestion.didYouMean(change.switchID, in: switches)); \(known).",
                    at: change.path)
                continue
            }
            for (tabID, title) in change.titles.sorted(by: { $0.key < $1.key }) {
                guard let tab = tabs.firstIndex(where: { $0.id == tabID }) else {
                    report(
                        "The tab switch '\(id)' has no tab '\(tabID)' to retitle\(Suggestion.didYouMean(tabID, in: tabs.map(\.id))).",
                        at: "\(change.path).titles.\(tabID)")
                    continue
                }
                tabs[tab].title = title
            }
            let present = Set(modules.map(\.id))
            for (offset, tab) in change.add.enumerated() {
                let tabPath = "\(change.path).add[\(offset)]"
                guard !tabs.contains(where: { $0.id == tab.id }) else {
                    report("The tab switch '\(id)' already has a tab '\(tab.id)'; give the new tab another id.", at: "\(tabPath).id")
                    continue
                }
                for (moduleIndex, module) in tab.modules.enumerated() where !present.contains(module) {
                    report(
                        "The tab '\(tab.id)' shows '\(module)', which is not a module of this variant\(Suggestion.didYouMean(module.rawValue, in: present.map(\.rawValue))); add it first.",
                        at: "\(tabPath).modules[\(moduleIndex)]")
                }
                tabs.append(tab)
            }
            items[index] = .tabs(id: id, tabs: tabs)
        }
        return items
    }

    /// The layout with every module it does not place appended, in module order, and
    /// references to absent modules dropped (the validator reports those).
    func completeLayout(_ layout: [LayoutItem]?, modules: [ModuleInstance]) -> [LayoutItem] {
        let present = Set(modules.map(\.id))
        var items: [LayoutItem] = []
        var placed: Set<ModuleID> = []
        for item in layout ?? [] {
            switch item {
            case .module(let id) where present.contains(id) && !placed.contains(id):
                items.append(item)
                placed.insert(id)
            case .module: break
            case .tabs(let id, let tabs):
                let kept = tabs.map { tab in
                    var tab = tab
                    tab.modules = tab.modules.filter { present.contains($0) && placed.insert($0).inserted }
                    return tab
                }
                items.append(.tabs(id: id, tabs: kept))
            }
        }
        // Modules the layout does not name go to the bottom, in module order; then those with
        // a placement go next to their anchor, which may be one of those (a scene with no
        // layout of its own places an added module "after" an inherited one, too).
        let unplaced = modules.filter { !placed.contains($0.id) }
        items += unplaced.filter { $0.placement == nil }.map { LayoutItem.module($0.id) }
        var top = 0
        for module in unplaced {
            guard let placement = module.placement else { continue }
            if placement == .top {
                items.insert(.module(module.id), at: top)
                top += 1
            } else if !Self.place(module.id, placement, in: &items) {
                items.append(.module(module.id))  // its anchor is not on the page (a diagnostic says so)
            }
        }
        return items
    }

    /// Puts `id` next to its placement's anchor, at the top level or inside the anchor's tab;
    /// `false` when the anchor is not in `items`.
    private static func place(_ id: ModuleID, _ placement: ModuleInstance.Placement, in items: inout [LayoutItem]) -> Bool {
        guard let anchor = placement.anchor else { return false }
        let offset = if case .after = placement { 1 } else { 0 }
        for (index, item) in items.enumerated() {
            switch item {
            case .module(let other) where other == anchor:
                items.insert(.module(id), at: index + offset)
                return true
            case .module:
                continue
            case .tabs(let switchID, var tabs):
                for tabIndex in tabs.indices {
                    guard let position = tabs[tabIndex].modules.firstIndex(of: anchor) else { continue }
                    tabs[tabIndex].modules.insert(id, at: position + offset)
                    items[index] = .tabs(id: switchID, tabs: tabs)
                    return true
                }
            }
        }
        return false
    }

    /// Errors for modules placed next to a module the scene does not have.
    func placementProblems(of modules: [ModuleInstance]) -> [Diagnostic] {
        let ids = modules.map(\.id.rawValue)
        var problems: [Diagnostic] = []
        for module in modules {
            guard let placement = module.placement, let anchor = placement.anchor else { continue }
            let key = if case .after = placement { "after" } else { "before" }
            let path = "\(module.path).\(key)"
            let location = definitions.values.first { $0.file == module.file }?.location(of: path)
            if anchor == module.id {
                problems.append(
                    Diagnostic(.error, "'\(module.id)' cannot be placed \(key) itself; name another module.", file: module.file, location: location, path: path)
                )
            } else if !ids.contains(anchor.rawValue) {
                problems.append(
                    Diagnostic(
                        .error,
                        "'\(module.id)' is placed \(key) '\(anchor)', which is not a module of this scene\(Suggestion.didYouMean(anchor.rawValue, in: ids.filter { $0 != module.id.rawValue })); name one of its modules.",
                        file: module.file, location: location, path: path))
            }
        }
        return problems
    }
}
