extension SceneRegistry {
    /// The requirements of a scene file this registry's module types do not meet: a newer
    /// format, a module type it lacks or has in an older version. Module types the file uses
    /// without listing them in `requires` count as needed at version 1.
    package func unmetRequirements(of definition: SceneDefinition) -> [UnmetRequirement] {
        var unmet: [UnmetRequirement] = []
        if definition.requirements.format > SceneRequirements.currentFormat {
            unmet.append(.format(needed: definition.requirements.format, supported: SceneRequirements.currentFormat))
        }
        var needed = definition.requirements.modules
        for type in definition.moduleTypes where needed[type] == nil { needed[type] = 1 }
        for (type, version) in needed.sorted(by: { $0.key < $1.key }) {
            guard let descriptor = registrations[type]?.descriptor else {
                unmet.append(.missingModule(type: type))
                continue
            }
            if descriptor.version < version { unmet.append(.moduleVersion(type: type, needed: version, available: descriptor.version)) }
        }
        return unmet
    }
}

extension SceneDefinition {
    /// Every module type the file names, in modules, replacements and variants.
    var moduleTypes: Set<String> {
        var types = Set((modules + replace).map(\.type))
        for variant in variants { types.formUnion((variant.add + variant.replace).map(\.type)) }
        return types
    }

    /// The definition without the module instances of some types, and where they were
    /// (their ids and JSON paths), also taken out of every layout.
    package func leavingOut(types: Set<String>) -> (definition: SceneDefinition, left: [ModuleInstance]) {
        var copy = self
        var left: [ModuleInstance] = []
        func keep(_ instances: [ModuleInstance]) -> [ModuleInstance] {
            instances.filter { instance in
                guard types.contains(instance.type) else { return true }
                left.append(instance)
                return false
            }
        }
        copy.modules = keep(modules)
        copy.replace = keep(replace)
        for index in copy.variants.indices {
            copy.variants[index].add = keep(copy.variants[index].add)
            copy.variants[index].replace = keep(copy.variants[index].replace)
        }
        let gone = Set(left.map(\.id))
        func prune(_ layout: [LayoutItem]?) -> [LayoutItem]? {
            layout?.compactMap { item in
                switch item {
                case .module(let id): return gone.contains(id) ? nil : item
                case .tabs(let id, let tabs):
                    return .tabs(id: id, tabs: tabs.map { TabSpec(id: $0.id, title: $0.title, modules: $0.modules.filter { !gone.contains($0) }) })
                }
            }
        }
        copy.layout = prune(layout)
        for index in copy.variants.indices { copy.variants[index].layout = prune(copy.variants[index].layout) }
        return (copy, left)
    }
}
