/// A variant's changes applied to its base: modules removed, replaced and added, parameters
/// and tabs changed, and the layout completed with every module placed once.
extension SceneRegistry {
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
    func variants(
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
    static func place(_ id: ModuleID, _ placement: ModuleInstance.Placement, in items: inout [LayoutItem]) -> Bool {
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
