/// Checks the message catalogs against the scenes and the module types: every translation
/// parses and fits its module's arguments and its language's plural rules, names things
/// that exist, keeps the arguments of what it translates, and nothing a scene shows is left
/// untranslated in a catalog's language.
struct CatalogValidator {
    let registry: SceneRegistry
    var found: [Diagnostic] = []
    /// Each file's folder and language, worked out once: a catalog asks them of every
    /// module, tab and rule of every scene.
    let files: FileFacts
    /// Each scene's wording, worked out once for every catalog (``wording(of:)``).
    var wordings: [String: SceneWording?] = [:]
    /// Each scene's modules, tabs and confirmations (``contents(of:_:)``).
    var sceneContents: [String: SceneContents] = [:]
    /// The registry's scenes, listed once.
    let sceneIDs: [String]
    var reported: Set<String> = []
    /// Each scene resolved once, for every catalog that names it (`nil`: it does not resolve).
    var resolvedScenes: [String: ResolvedScene?] = [:]
    /// One memo for every resolution: each scene of an `extends` chain is applied once.
    var memo = ResolutionMemo()

    init(registry: SceneRegistry) {
        self.registry = registry
        files = FileFacts(registry: registry)
        sceneIDs = registry.sceneIDs
    }

    mutating func validate() -> [Diagnostic] {
        for language in registry.translatedLanguages {
            guard let catalog = registry.catalogs[language] else { continue }
            checkModuleSection(of: catalog)
            checkSceneSections(of: catalog)
            checkCompleteness(of: catalog)
        }
        return found
    }

    mutating func resolved(_ sceneID: String) -> ResolvedScene? {
        if let known = resolvedScenes[sceneID] { return known }
        // The validation of the scenes resolved most of them already.
        if let validated = registry.validatedResolution(of: sceneID) {
            resolvedScenes[sceneID] = validated
            return validated
        }
        var ignored: [Diagnostic] = []
        let scene = try? registry.resolve(sceneID, problems: &ignored, memo: &memo)
        resolvedScenes[sceneID] = scene
        return scene
    }

    mutating func error(_ message: String, in catalog: MessageCatalog, at location: SourcePosition?, path: String) {
        let diagnostic = Diagnostic(.error, message, file: catalog.file, location: location, path: path)
        guard reported.insert(diagnostic.description).inserted else { return }
        found.append(diagnostic)
    }

    // MARK: What a catalog says

    mutating func checkModuleSection(of catalog: MessageCatalog) {
        for type in catalog.modules.keys.sorted() {
            let entries = catalog.modules[type] ?? [:]
            guard let descriptor = registry.registrations[type]?.descriptor else {
                let hint = Suggestion.hint(for: type, in: Array(registry.registrations.keys), listing: "module types")
                let place = entries.values.map(\.location).min()
                error(
                    "There is no module type \(type.quoted)\(hint); fix the name or remove its translations.", in: catalog, at: place, path: "modules.\(type)")
                continue
            }
            for name in entries.keys.sorted() {
                guard let entry = entries[name] else { continue }
                guard let spec = message(named: name, of: descriptor, entry: entry, in: catalog) else { continue }
                check(entry, against: spec, original: spec.defaultValue?.stringValue, owner: "\(type)'s \(name.quoted)", in: catalog)
            }
        }
    }

    mutating func checkSceneSections(of catalog: MessageCatalog) {
        let known = Set(sceneIDs)
        for sceneID in catalog.scenes.keys.sorted() {
            guard let section = catalog.scenes[sceneID] else { continue }
            guard known.contains(sceneID), let scene = resolved(sceneID) else {
                let hint = Suggestion.hint(for: sceneID, in: sceneIDs, listing: "scenes")
                error(
                    "There is no valid scene \(sceneID.quoted)\(hint); fix the id or remove its section.", in: catalog, at: section.location,
                    path: "scenes.\(sceneID)")
                continue
            }
            let contents = contents(of: sceneID, scene)
            let (instances, tabs, confirmations) = (contents.instances, contents.tabs, contents.confirmations)
            for moduleID in section.params.keys.sorted() {
                let entries = section.params[moduleID] ?? [:]
                guard let instance = instances[moduleID], let descriptor = registry.registrations[instance.type]?.descriptor else {
                    let hint = Suggestion.hint(for: moduleID, in: Array(instances.keys), listing: "modules")
                    error(
                        "The scene \(sceneID.quoted) has no module \(moduleID.quoted)\(hint).", in: catalog, at: entries.values.map(\.location).min(),
                        path: "scenes.\(sceneID).params.\(moduleID)")
                    continue
                }
                for name in entries.keys.sorted() {
                    guard let entry = entries[name], let spec = message(named: name, of: descriptor, entry: entry, in: catalog) else { continue }
                    let original = instance.parameters[name]?.stringValue ?? spec.defaultValue?.stringValue
                    check(entry, against: spec, original: original, owner: "\(sceneID)'s \(moduleID).\(name)", in: catalog)
                }
            }
            for tab in section.tabs.keys.sorted() where !tabs.contains(tab) {
                let hint = Suggestion.hint(for: tab, in: Array(tabs), listing: "tabs")
                error(
                    "The scene \(sceneID.quoted) has no tab \(tab.quoted)\(hint).", in: catalog, at: section.tabs[tab]?.location,
                    path: "scenes.\(sceneID).tabs.\(tab)")
            }
            for event in section.confirmations.keys.sorted() {
                let texts = section.confirmations[event] ?? [:]
                guard let confirmation = confirmations[event] else {
                    let hint = Suggestion.hint(for: event, in: Array(confirmations.keys), listing: "events it confirms")
                    error(
                        "The scene \(sceneID.quoted) asks no confirmation of \(event.quoted)\(hint).", in: catalog,
                        at: texts.values.map(\.location).min(), path: "scenes.\(sceneID).confirmations.\(event)")
                    continue
                }
                for (field, entry) in texts.sorted(by: { $0.key < $1.key }) {
                    if (try? Template(parsing: entry.text, allowsEventFields: true)) == nil {
                        error(
                            "\(entry.path.quoted) is not valid text with $references; write a reference as $event.name.", in: catalog,
                            at: entry.location, path: entry.path)
                    }
                    let original = Self.text(of: confirmation, field: field)
                    if original == nil, field == "message" {
                        error(
                            "The confirmation of \(event.quoted) in \(sceneID.quoted) has no message to translate; remove \(entry.path.quoted).",
                            in: catalog, at: entry.location, path: entry.path)
                    }
                    let kept = Set(Self.references(in: entry.text))
                    for reference in Self.references(in: original ?? "") where !kept.contains(reference) {
                        error(
                            "The translation drops \(Self.spelling(of: reference)), which the original (\((original ?? "").quoted)) shows; keep it.",
                            in: catalog, at: entry.location, path: entry.path)
                    }
                }
            }
        }
    }

    /// A scene's modules, tabs and confirmed events (the first of each id across its
    /// variants), gathered once for every catalog that has a section of it.
    mutating func contents(of sceneID: String, _ scene: ResolvedScene) -> SceneContents {
        if let known = sceneContents[sceneID] { return known }
        var found = SceneContents()
        for variant in scene.variants {
            for instance in variant.modules where found.instances[instance.id.rawValue] == nil { found.instances[instance.id.rawValue] = instance }
            for case .tabs(_, let items) in variant.layout { found.tabs.formUnion(items.map(\.id)) }
            for rule in variant.rules {
                for case .confirm(let confirmation) in rule.steps where found.confirmations[rule.on] == nil {
                    found.confirmations[rule.on] = confirmation
                }
            }
        }
        sceneContents[sceneID] = found
        return found
    }

    /// What a scene holds that a catalog's section may name.
    struct SceneContents {
        var instances: [String: ModuleInstance] = [:]
        var tabs: Set<String> = []
        var confirmations: [String: Confirmation] = [:]
    }

    /// The spec of a message parameter, or an error where the catalog names another.
    mutating func message(
        named name: String, of descriptor: ModuleDescriptor, entry: MessageCatalog.Entry, in catalog: MessageCatalog
    ) -> ParameterSpec? {
        guard let spec = descriptor.parameter(named: name) else {
            let names = descriptor.parameters.filter { $0.messageArguments != nil }.map(\.name)
            error(
                "\(descriptor.type) has no message \(name.quoted)\(Suggestion.hint(for: name, in: names, listing: "messages")).", in: catalog,
                at: entry.location, path: entry.path)
            return nil
        }
        guard spec.messageArguments != nil else {
            error(
                "\(descriptor.type)'s \(name.quoted) is not wording (\(spec.type.phrase) a scene sets); only messages are translated.",
                in: catalog, at: entry.location, path: entry.path)
            return nil
        }
        return spec
    }

    /// A translation: it parses, fits the module's arguments and the language's plurals,
    /// and keeps every argument the original shows.
    mutating func check(_ entry: MessageCatalog.Entry, against spec: ParameterSpec, original: String?, owner: String, in catalog: MessageCatalog) {
        if let problem = spec.messageProblem(in: entry.text) {
            error(
                "\(owner): \(problem.reason).", in: catalog, at: entry.location.movedTo(character: problem.offset, ofStringIn: catalog.source),
                path: entry.path)
            return
        }
        guard let message = try? Message.parsed(entry.text) else { return }
        for (argument, missing) in message.missingPluralCategories(for: PluralRules(for: catalog.language)) {
            error(
                "\(owner) has a plural of {\(argument)} without \(missing.map(\.rawValue).joined(separator: ", ")), which \(catalog.language) needs (CLDR plural rules); add \(missing.map { "\($0.rawValue) {…}" }.joined(separator: " ")).",
                in: catalog, at: entry.location, path: entry.path)
        }
        if let original, let source = try? Message.parsed(original) {
            for dropped in message.droppedArguments(comparedWith: source) {
                error(
                    "\(owner) drops {\(dropped)}, which the original (\(original.quoted)) shows; keep it.", in: catalog, at: entry.location,
                    path: entry.path)
            }
        }
    }

}
