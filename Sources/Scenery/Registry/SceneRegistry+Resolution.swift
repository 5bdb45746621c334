/// A scene with `extends` applied and every variant turned into a concrete module list.
struct ResolvedScene: Sendable {
    var id: String
    var parameters: [ParameterSpec]
    /// The declared variants in order, then the scene's base (named "default") unless a
    /// declared variant always applies.
    var variants: [ResolvedVariant]
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
}

extension SceneRegistry {
    /// Applies `extends` and variants. Problems (unknown parents, cycles, removing what is
    /// not there) are appended to `problems`; resolution goes on past them where it can.
    func resolve(_ sceneID: String, problems: inout [Diagnostic]) throws(SceneryError) -> ResolvedScene {
        guard let definition = definitions[sceneID] else {
            throw SceneryError(
                .unknownScene, "No scene '\(sceneID)' is registered\(Suggestion.hint(for: sceneID, in: sceneIDs, listing: "scenes")).")
        }
        // The chain from this scene up to its root ancestor.
        var chain = [definition]
        var seen: Set<String> = [sceneID]
        while let parent = chain.last?.extends {
            guard let parentDefinition = definitions[parent] else {
                let child = chain.last!
                problems.append(
                    Diagnostic(
                        .error,
                        "The scene '\(child.id)' extends '\(parent)', which is not a scene\(Suggestion.didYouMean(parent, in: sceneIDs.filter { $0 != child.id })); name an existing scene file without '.json'.",
                        file: child.file, location: child.location(of: "extends"), path: "extends"))
                throw SceneryError(.invalidScene, "The scene '\(sceneID)' extends an unknown scene.")
            }
            guard !seen.contains(parent) else {
                let child = chain.last!
                let names = chain.map(\.id) + [parent]
                // Long cycles are shown by their ends, so the message stays short.
                let cycle = names.count <= 8 ? names.joined(separator: " → ") : (names.prefix(4) + ["…"] + names.suffix(3)).joined(separator: " → ")
                problems.append(
                    Diagnostic(
                        .error, "'extends' forms a cycle (\(cycle)); a scene cannot extend itself through its parents.",
                        file: child.file, location: child.location(of: "extends"), path: "extends"))
                throw SceneryError(.invalidScene, "The scene '\(sceneID)' extends itself.")
            }
            seen.insert(parent)
            chain.append(parentDefinition)
        }

        var parameters: [ParameterSpec] = []
        var modules: [ModuleInstance] = []
        var layout: [LayoutItem]?
        var rules: [EventRule] = []
        var variants: [Variant] = []
        for scene in chain.reversed() {
            for parameter in scene.parameters {
                parameters.removeAll { $0.name == parameter.name }
                parameters.append(parameter)
            }
            modules = apply(
                remove: scene.remove, replace: scene.replace, add: scene.modules, to: modules,
                file: scene.file, path: "", sceneFile: scene, problems: &problems)
            layout = scene.layout ?? layout
            rules = scene.events + rules
            if !scene.variants.isEmpty { variants = scene.variants }
        }

        var resolved: [ResolvedVariant] = variants.map { variant in
            let owner = variant.file == definition.file ? definition : (chain.first { $0.file == variant.file } ?? definition)
            let variantModules = apply(
                remove: variant.remove, replace: variant.replace, add: variant.add, to: modules,
                file: variant.file, path: variant.path, sceneFile: owner, problems: &problems)
            return ResolvedVariant(
                name: variant.name, condition: variant.condition, modules: variantModules,
                layout: completeLayout(variant.layout ?? layout, modules: variantModules),
                rules: variant.events + rules, file: variant.file, path: variant.path)
        }
        if !variants.contains(where: { $0.condition == nil }) {
            resolved.append(
                ResolvedVariant(
                    name: "default", condition: nil, modules: modules, layout: completeLayout(layout, modules: modules),
                    rules: rules, file: definition.file, path: ""))
        }
        return ResolvedScene(id: sceneID, parameters: parameters, variants: resolved)
    }

    /// Resolves a scene, ignoring problems (they are the validator's to report).
    func resolve(_ sceneID: String) throws(SceneryError) -> ResolvedScene {
        var ignored: [Diagnostic] = []
        return try resolve(sceneID, problems: &ignored)
    }

    private func apply(
        remove: [ModuleID], replace: [ModuleInstance], add: [ModuleInstance], to base: [ModuleInstance],
        file: String, path: String, sceneFile: SceneDefinition, problems: inout [Diagnostic]
    ) -> [ModuleInstance] {
        func at(_ key: String) -> String { path.isEmpty ? key : "\(path).\(key)" }
        let addKey = path.isEmpty ? "modules" : "add"
        var modules = base
        for (index, id) in remove.enumerated() {
            guard modules.contains(where: { $0.id == id }) else {
                let p = "\(at("remove"))[\(index)]"
                problems.append(
                    Diagnostic(
                        .error, "Cannot remove '\(id)': no such module here\(Suggestion.didYouMean(id.rawValue, in: modules.map(\.id.rawValue))).",
                        file: file, location: sceneFile.location(of: p), path: p))
                continue
            }
            modules.removeAll { $0.id == id }
        }
        for instance in replace {
            guard let index = modules.firstIndex(where: { $0.id == instance.id }) else {
                problems.append(
                    Diagnostic(
                        .error, "Cannot replace '\(instance.id)': no such module here; use \"\(addKey)\" to add a new module.",
                        file: file, location: sceneFile.location(of: "\(instance.path).id"), path: "\(instance.path).id"))
                continue
            }
            modules[index] = instance
        }
        for instance in add {
            guard !modules.contains(where: { $0.id == instance.id }) else {
                problems.append(
                    Diagnostic(
                        .error, "Duplicate module id '\(instance.id)': the scene already has it; use \"replace\" to change it or choose another id.",
                        file: file, location: sceneFile.location(of: "\(instance.path).id"), path: "\(instance.path).id"))
                continue
            }
            modules.append(instance)
        }
        return modules
    }

    /// The layout with every module it does not place appended, in module order, and
    /// references to absent modules dropped (the validator reports those).
    private func completeLayout(_ layout: [LayoutItem]?, modules: [ModuleInstance]) -> [LayoutItem] {
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
        items += modules.map(\.id).filter { !placed.contains($0) }.map(LayoutItem.module)
        return items
    }
}
