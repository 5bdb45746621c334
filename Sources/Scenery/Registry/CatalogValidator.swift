/// Checks the message catalogs against the scenes and the module types: every translation
/// parses and fits its module's arguments and its language's plural rules, names things
/// that exist, keeps the arguments of what it translates, and nothing a scene shows is left
/// untranslated in a catalog's language.
struct CatalogValidator {
    let registry: SceneRegistry
    private var found: [Diagnostic] = []
    private var reported: Set<String> = []
    /// Each scene resolved once, for every catalog that names it (`nil`: it does not resolve).
    private var resolvedScenes: [String: ResolvedScene?] = [:]
    /// One memo for every resolution: each scene of an `extends` chain is applied once.
    private var memo = ResolutionMemo()

    init(registry: SceneRegistry) {
        self.registry = registry
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

    private mutating func resolved(_ sceneID: String) -> ResolvedScene? {
        if let known = resolvedScenes[sceneID] { return known }
        var ignored: [Diagnostic] = []
        let scene = try? registry.resolve(sceneID, problems: &ignored, memo: &memo)
        resolvedScenes[sceneID] = scene
        return scene
    }

    private mutating func error(_ message: String, in catalog: MessageCatalog, at location: SourcePosition?, path: String) {
        let diagnostic = Diagnostic(.error, message, file: catalog.file, location: location, path: path)
        guard reported.insert(diagnostic.description).inserted else { return }
        found.append(diagnostic)
    }

    // MARK: What a catalog says

    private mutating func checkModuleSection(of catalog: MessageCatalog) {
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

    private mutating func checkSceneSections(of catalog: MessageCatalog) {
        let sceneIDs = registry.sceneIDs
        for sceneID in catalog.scenes.keys.sorted() {
            guard let section = catalog.scenes[sceneID] else { continue }
            guard sceneIDs.contains(sceneID), let scene = resolved(sceneID) else {
                let hint = Suggestion.hint(for: sceneID, in: sceneIDs, listing: "scenes")
                error(
                    "There is no valid scene \(sceneID.quoted)\(hint); fix the id or remove its section.", in: catalog, at: section.location,
                    path: "scenes.\(sceneID)")
                continue
            }
            var instances: [String: ModuleInstance] = [:]
            var tabs: Set<String> = []
            var confirmations: [String: Confirmation] = [:]
            for variant in scene.variants {
                for instance in variant.modules { instances[instance.id.rawValue] = instances[instance.id.rawValue] ?? instance }
                for case .tabs(_, let items) in variant.layout { tabs.formUnion(items.map(\.id)) }
                for rule in variant.rules {
                    for case .confirm(let confirmation) in rule.steps { confirmations[rule.on] = confirmations[rule.on] ?? confirmation }
                }
            }
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

    /// The spec of a message parameter, or an error where the catalog names another.
    private mutating func message(
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
    private mutating func check(_ entry: MessageCatalog.Entry, against spec: ParameterSpec, original: String?, owner: String, in catalog: MessageCatalog) {
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

    // MARK: What a catalog leaves out

    /// Everything a scene beside the catalog (in its folder) shows in a language other than
    /// the catalog's must have a translation: the wording its files set (in the scene's
    /// section, or that of a scene it extends), the module types' defaults (in "modules"),
    /// its title, tabs and confirmations. Scenes of other folders (a package that extends
    /// these) answer to their own catalogs.
    private mutating func checkCompleteness(of catalog: MessageCatalog) {
        let language = catalog.language
        let isEnglish = LanguageTag.primary(of: language) == "en"
        let top = SourcePosition(line: 1, column: 1)
        let folder = Self.folder(of: catalog.file)
        for sceneID in registry.sceneIDs {
            guard let definition = registry.definition(of: sceneID), Self.folder(of: definition.file) == folder,
                let scene = resolved(sceneID), registry.diagnostics(for: sceneID).containsErrors == false
            else { continue }
            let sections = registry.sceneSections(of: sceneID, in: catalog)
            func inCatalog(_ read: (MessageCatalog.SceneSection) -> MessageCatalog.Entry?) -> Bool {
                sections.contains { read($0) != nil }
            }
            if let title = registry.title(of: sceneID), !inCatalog(\.title), !sameLanguage(registry.language(of: sceneID) ?? "en", language) {
                error(
                    "The scene \(sceneID.quoted) is titled \(title.quoted), which has no \(language) translation; add \"scenes\": { \(sceneID.quoted): { \"title\": \"…\" } }.",
                    in: catalog, at: top, path: "scenes.\(sceneID).title")
            }
            for variant in scene.variants {
                for instance in variant.modules {
                    guard let descriptor = registry.registrations[instance.type]?.descriptor else { continue }
                    for spec in descriptor.parameters where spec.messageArguments != nil {
                        if inCatalog({ $0.params[instance.id.rawValue]?[spec.name] }) { continue }
                        if let value = instance.parameters[spec.name] {
                            let file = instance.parameterOrigins[spec.name]?.file ?? instance.file
                            // Wording written in another folder (an app's scene over these)
                            // answers to that folder's catalogs.
                            guard Self.folder(of: file) == folder else { continue }
                            let written = registry.language(ofFile: file)
                            if sameLanguage(written, language) { continue }
                            error(
                                "\(file) sets \(instance.id.rawValue).\(spec.name) to \(value.plainText.quoted) (\(written)), which has no \(language) translation; add it at scenes.\(Self.owner(of: file)).params.\(instance.id.rawValue).\(spec.name).",
                                in: catalog, at: top, path: "scenes.\(Self.owner(of: file)).params.\(instance.id.rawValue).\(spec.name)")
                        } else if !isEnglish, Self.folder(of: instance.file) == folder, catalog.modules[instance.type]?[spec.name] == nil {
                            error(
                                "\(instance.type)'s \(spec.name.quoted) (\((spec.defaultValue?.plainText ?? "").quoted)) has no \(language) translation; add it at modules.\(instance.type).\(spec.name).",
                                in: catalog, at: top, path: "modules.\(instance.type).\(spec.name)")
                        }
                    }
                }
                let layoutFile = variant.declaredLayout?.file ?? variant.file
                for case .tabs(_, let tabs) in variant.layout where Self.folder(of: layoutFile) == folder {
                    for tab in tabs where !inCatalog({ $0.tabs[tab.id] }) && !sameLanguage(registry.language(ofFile: layoutFile), language) {
                        error(
                            "The tab \(tab.id.quoted) of \(sceneID.quoted) is titled \(tab.title.quoted), which has no \(language) translation; add it at scenes.\(sceneID).tabs.\(tab.id).",
                            in: catalog, at: top, path: "scenes.\(sceneID).tabs.\(tab.id)")
                    }
                }
                for rule in variant.rules where Self.folder(of: rule.file) == folder && !sameLanguage(registry.language(ofFile: rule.file), language) {
                    for case .confirm(let confirmation) in rule.steps {
                        let texts = sections.lazy.compactMap { $0.confirmations[rule.on] }.first ?? [:]
                        for field in MessageCatalog.confirmationFields where Self.text(of: confirmation, field: field) != nil && texts[field] == nil {
                            error(
                                "The confirmation of \(rule.on.quoted) in \(Self.owner(of: rule.file)) says \((Self.text(of: confirmation, field: field) ?? "").quoted), which has no \(language) translation; add it at scenes.\(Self.owner(of: rule.file)).confirmations.\(rule.on).\(field).",
                                in: catalog, at: top, path: "scenes.\(Self.owner(of: rule.file)).confirmations.\(rule.on).\(field)")
                        }
                    }
                }
            }
        }
    }

    private static func folder(of file: String) -> String {
        file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }

    private func sameLanguage(_ written: String, _ language: String) -> Bool {
        written.lowercased() == language.lowercased()
    }

    /// The scene whose file it is (its section is where a translation of it goes).
    private static func owner(of file: String) -> String {
        SceneRegistry.sceneID(ofFileNamed: String(file.split(separator: "/").last ?? Substring(file)))
    }

    private static func text(of confirmation: Confirmation, field: String) -> String? {
        switch field {
        case "title": confirmation.title
        case "message": confirmation.message
        case "confirm": confirmation.confirmLabel
        default: confirmation.cancelLabel
        }
    }

    /// The `$references` of a template text (`$event.name`, `$user`).
    private static func references(in text: String) -> [Template.Reference] {
        guard let template = try? Template(parsing: text, allowsEventFields: true) else { return [] }
        return template.references.map(\.reference)
    }

    private static func spelling(of reference: Template.Reference) -> String {
        switch reference {
        case .viewer: "$viewer"
        case .parameter(let name): "$\(name)"
        case .eventField(let field): "$event.\(field)"
        }
    }
}
