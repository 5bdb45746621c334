/// Checks the message catalogs against the scenes and the module types: every translation
/// parses and fits its module's arguments and its language's plural rules, names things
/// that exist, keeps the arguments of what it translates, and nothing a scene shows is left
/// untranslated in a catalog's language.
struct CatalogValidator {
    let registry: SceneRegistry
    private var found: [Diagnostic] = []
    /// Each file's folder and language, worked out once: a catalog asks them of every
    /// module, tab and rule of every scene.
    private let files = FileFacts()
    /// Each scene's wording, worked out once for every catalog (``wording(of:)``).
    private var wordings: [String: SceneWording?] = [:]
    /// Each scene's modules, tabs and confirmations (``contents(of:_:)``).
    private var sceneContents: [String: SceneContents] = [:]
    /// The registry's scenes, listed once.
    private let sceneIDs: [String]
    private var reported: Set<String> = []
    /// Each scene resolved once, for every catalog that names it (`nil`: it does not resolve).
    private var resolvedScenes: [String: ResolvedScene?] = [:]
    /// One memo for every resolution: each scene of an `extends` chain is applied once.
    private var memo = ResolutionMemo()

    init(registry: SceneRegistry) {
        self.registry = registry
        files.registry = registry
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

    private mutating func resolved(_ sceneID: String) -> ResolvedScene? {
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
    private mutating func contents(of sceneID: String, _ scene: ResolvedScene) -> SceneContents {
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
    private struct SceneContents {
        var instances: [String: ModuleInstance] = [:]
        var tabs: Set<String> = []
        var confirmations: [String: Confirmation] = [:]
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
        let folder = files.folder(of: catalog.file)
        for sceneID in sceneIDs {
            guard let wording = wording(of: sceneID), wording.folder == folder else { continue }
            let sections = registry.sceneSections(of: sceneID, in: catalog)
            func inCatalog(_ read: (MessageCatalog.SceneSection) -> MessageCatalog.Entry?) -> Bool {
                sections.contains { read($0) != nil }
            }
            for item in wording.items where item.folder == folder && !sameLanguage(item.written, language) {
                switch item.kind {
                case .title(let title):
                    guard !inCatalog(\.title) else { continue }
                    error(
                        "The scene \(sceneID.quoted) is titled \(title.quoted), which has no \(language) translation; add \"scenes\": { \(sceneID.quoted): { \"title\": \"…\" } }.",
                        in: catalog, at: top, path: "scenes.\(sceneID).title")
                case .parameter(let module, let name, let value, let file):
                    guard !inCatalog({ $0.params[module]?[name] }) else { continue }
                    let owner = Self.owner(of: file)
                    error(
                        "\(file) sets \(module).\(name) to \(value.quoted) (\(item.written)), which has no \(language) translation; add it at scenes.\(owner).params.\(module).\(name).",
                        in: catalog, at: top, path: "scenes.\(owner).params.\(module).\(name)")
                case .moduleDefault(let module, let type, let name, let text):
                    guard !isEnglish, !inCatalog({ $0.params[module]?[name] }), catalog.modules[type]?[name] == nil else { continue }
                    error(
                        "\(type)'s \(name.quoted) (\(text.quoted)) has no \(language) translation; add it at modules.\(type).\(name).", in: catalog,
                        at: top, path: "modules.\(type).\(name)")
                case .tab(let id, let title):
                    guard !inCatalog({ $0.tabs[id] }) else { continue }
                    error(
                        "The tab \(id.quoted) of \(sceneID.quoted) is titled \(title.quoted), which has no \(language) translation; add it at scenes.\(sceneID).tabs.\(id).",
                        in: catalog, at: top, path: "scenes.\(sceneID).tabs.\(id)")
                case .confirmation(let event, let field, let text, let owner):
                    guard sections.lazy.compactMap({ $0.confirmations[event] }).first?[field] == nil else { continue }
                    error(
                        "The confirmation of \(event.quoted) in \(owner) says \(text.quoted), which has no \(language) translation; add it at scenes.\(owner).confirmations.\(event).\(field).",
                        in: catalog, at: top, path: "scenes.\(owner).confirmations.\(event).\(field)")
                }
            }
        }
    }

    /// What a valid scene shows that a catalog of another language must translate: worked
    /// out once, for every catalog (`nil`: the scene has errors or does not resolve).
    private mutating func wording(of sceneID: String) -> SceneWording? {
        if let known = wordings[sceneID] { return known }
        var wording: SceneWording?
        if let definition = registry.definition(of: sceneID), let scene = resolved(sceneID),
            registry.diagnostics(for: sceneID).containsErrors == false
        {
            var items: [SceneWording.Item] = []
            let own = files.folder(of: definition.file)
            if let title = registry.title(of: sceneID) {
                items.append(.init(kind: .title(title), folder: own, written: registry.language(of: sceneID) ?? "en"))
            }
            for variant in scene.variants {
                for instance in variant.modules {
                    guard let descriptor = registry.registrations[instance.type]?.descriptor else { continue }
                    for spec in descriptor.parameters where spec.messageArguments != nil {
                        if let value = instance.parameters[spec.name] {
                            // Wording written in another folder (an app's scene over these)
                            // answers to that folder's catalogs.
                            let file = instance.parameterOrigins[spec.name]?.file ?? instance.file
                            items.append(
                                .init(
                                    kind: .parameter(module: instance.id.rawValue, name: spec.name, value: value.plainText, file: file),
                                    folder: files.folder(of: file), written: files.language(ofFile: file)))
                        } else {
                            // A module type's default is English: every other language needs it.
                            items.append(
                                .init(
                                    kind: .moduleDefault(
                                        module: instance.id.rawValue, type: instance.type, name: spec.name, text: spec.defaultValue?.plainText ?? ""),
                                    folder: files.folder(of: instance.file), written: "en"))
                        }
                    }
                }
                let layoutFile = variant.declaredLayout?.file ?? variant.file
                for case .tabs(_, let tabs) in variant.layout {
                    for tab in tabs {
                        items.append(
                            .init(kind: .tab(id: tab.id, title: tab.title), folder: files.folder(of: layoutFile), written: files.language(ofFile: layoutFile)))
                    }
                }
                for rule in variant.rules {
                    for case .confirm(let confirmation) in rule.steps {
                        for field in MessageCatalog.confirmationFields {
                            guard let text = Self.text(of: confirmation, field: field) else { continue }
                            items.append(
                                .init(
                                    kind: .confirmation(event: rule.on, field: field, text: text, owner: Self.owner(of: rule.file)),
                                    folder: files.folder(of: rule.file), written: files.language(ofFile: rule.file)))
                        }
                    }
                }
            }
            wording = SceneWording(folder: own, items: items)
        }
        wordings[sceneID] = .some(wording)
        return wording
    }

    /// What a scene shows in words, and where each is written.
    private struct SceneWording {
        struct Item {
            enum Kind {
                case title(String)
                /// Wording a scene file sets for a module.
                case parameter(module: String, name: String, value: String, file: String)
                /// A module type's own (English) wording, which no scene file sets.
                case moduleDefault(module: String, type: String, name: String, text: String)
                case tab(id: String, title: String)
                case confirmation(event: String, field: String, text: String, owner: String)
            }
            var kind: Kind
            /// The folder of the file it is written in: a catalog answers for its own folder.
            var folder: String
            /// The language it is written in.
            var written: String
        }

        /// The folder of the scene's own file.
        var folder: String
        var items: [Item]
    }

    private static func folder(of file: String) -> String {
        file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }

    /// The folder and language of the files the scenes are written in, memoized.
    private final class FileFacts {
        var registry: SceneRegistry?
        private var folders: [String: String] = [:]
        private var languages: [String: String] = [:]

        func folder(of file: String) -> String {
            if let known = folders[file] { return known }
            let folder = CatalogValidator.folder(of: file)
            folders[file] = folder
            return folder
        }

        func language(ofFile file: String) -> String {
            if let known = languages[file] { return known }
            let language = registry?.language(ofFile: file) ?? "en"
            languages[file] = language
            return language
        }
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
