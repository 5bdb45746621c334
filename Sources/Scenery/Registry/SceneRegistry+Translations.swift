import Foundation

extension SceneRegistry {
    // MARK: Catalogs

    /// The languages the registry has message catalogs for, sorted (`MessageCatalog`),
    /// and the pseudo-locale last when ``offersPseudoLocale`` is on.
    public var translatedLanguages: [String] { catalogs.keys.sorted() + (offersPseudoLocale ? [PseudoLocale.identifier] : []) }

    /// The message catalogs of a directory (`*.messages.json`), sorted by name.
    /// - Throws: ``SceneryError`` with ``SceneryError/Code/unreadableFile`` if the directory
    ///   cannot be listed.
    public static func messageCatalogFiles(in directory: URL) throws(SceneryError) -> [URL] {
        try files(in: directory, where: MessageCatalog.isCatalogFile)
    }

    /// Reads message catalogs (`<language>.messages.json`); a later catalog of a language
    /// replaces an earlier one. Returns the problems of reading them; the problems of
    /// their messages come from ``messageCatalogDiagnostics``.
    ///
    /// A file is read as a scene file is (``addScenes(files:displayRoot:)``): a regular file,
    /// not too large, and not a link out of the folder it was listed from.
    ///
    /// - Parameters:
    ///   - files: The catalog files.
    ///   - displayRoot: As for ``addScenes(files:displayRoot:)``.
    @discardableResult
    public mutating func addMessageCatalogs(files: [URL], displayRoot: URL? = nil) -> [Diagnostic] {
        addFiles(files, displayRoot: displayRoot, kind: "message catalog", problems: \.readProblems.catalogs) {
            $0.addMessageCatalog(bytes: $1, file: $2)
        }
    }

    /// Adds (or replaces) a message catalog from its file's text; returns the problems of
    /// reading it.
    @discardableResult
    public mutating func addMessageCatalog(source: String, file: String) -> [Diagnostic] {
        addMessageCatalog(bytes: Array(source.utf8), file: file)
    }

    private mutating func addMessageCatalog(bytes: [UInt8], file: String) -> [Diagnostic] {
        let (catalog, problems) = MessageCatalog.parse(bytes: bytes, file: file)
        readProblems.catalogs[file] = problems.isEmpty ? nil : problems
        if let catalog { catalogs[catalog.language] = catalog }
        revalidate()
        return problems
    }

    /// Every problem of the catalogs: reading them, messages that do not parse or do not fit
    /// their module, plurals their language lacks, and wording a scene shows that a
    /// catalog's language leaves untranslated.
    public var messageCatalogDiagnostics: [Diagnostic] {
        let read = readProblems.catalogs.keys.sorted().flatMap { readProblems.catalogs[$0] ?? [] }
        guard !catalogs.isEmpty else { return read }
        var validator = CatalogValidator(registry: self)
        return read + validator.validate()
    }

    // MARK: Languages

    /// The language a scene is shown in to a viewer who asked for `requested` (a BCP 47 tag,
    /// from `--locale`, `Accept-Language` or a language switch).
    ///
    /// The requested tag is tried, then its shorter forms (`zh-Hans-CN`, `zh-Hans`, `zh`),
    /// then any catalog of the same language (`zh` finds `zh-Hans`); the scene's own language
    /// matches too. A language the registry cannot show falls back to the scene's own
    /// (``language(of:)``, else English): check ``translatedLanguages`` to warn the viewer.
    ///
    /// ```swift
    /// registry.language(of: "user-profile", for: "zh-CN")   // "zh-Hans" with Scenes/zh-Hans.messages.json
    /// registry.language(of: "user-profile", for: "xx")      // "en": the scene's own
    /// ```
    public func language(of sceneID: String, for requested: String?) -> String {
        let own = language(of: sceneID) ?? "en"
        guard let requested, !requested.isEmpty else { return own }
        if offersPseudoLocale, PseudoLocale.isPseudo(requested) { return PseudoLocale.identifier }
        let ownForms = Set(LanguageTag.fallbacks(of: own).map { $0.lowercased() })
        let available = Dictionary(catalogs.keys.map { ($0.lowercased(), $0) }, uniquingKeysWith: { first, _ in first })
        for candidate in LanguageTag.fallbacks(of: requested) {
            if candidate.lowercased() == own.lowercased() { return own }
            if let found = available[candidate.lowercased()] { return found }
        }
        let primary = LanguageTag.primary(of: requested)
        if ownForms.contains(primary) { return own }
        if let found = catalogs.keys.sorted().first(where: { LanguageTag.primary(of: $0) == primary }) { return found }
        return own
    }

    /// Whether a scene can be shown in the language asked for (its own, or a catalog's of
    /// the same language) rather than falling back to its own in another.
    ///
    /// ```swift
    /// registry.canShow("user-profile", in: "zh-CN")   // true with Scenes/zh-Hans.messages.json
    /// registry.canShow("user-profile", in: "fr")      // false: it would show in English
    /// ```
    public func canShow(_ sceneID: String, in requested: String) -> Bool {
        LanguageTag.primary(of: language(of: sceneID, for: requested)) == LanguageTag.primary(of: requested)
    }

    /// A scene's title in a language: the nearest title up its `extends` chain that is in
    /// that language (a catalog's section, or a scene file written in it), else the scene's
    /// own title.
    public func title(of sceneID: String, in language: String) -> String? {
        if PseudoLocale.isPseudo(language) { return title(of: sceneID).map(PseudoLocale.transformed) }
        guard let catalog = catalogs[language] else { return title(of: sceneID) }
        var visited: Set<String> = []
        var next: String? = sceneID
        while let id = next, visited.insert(id).inserted, visited.count <= 64 {
            if let title = catalog.scenes[id]?.title { return title.text }
            if let title = definitions[id]?.title, (self.language(of: id) ?? "en").lowercased() == language.lowercased() { return title }
            next = definitions[id]?.extends.map { $0 == id ? Self.replacedSceneID(of: id) : $0 }
        }
        return title(of: sceneID)
    }

    /// The sections of a catalog that translate a scene: its own, then those of the scenes
    /// it extends, nearest first.
    func sceneSections(of sceneID: String, in catalog: MessageCatalog) -> [MessageCatalog.SceneSection] {
        var sections: [MessageCatalog.SceneSection] = []
        var visited: Set<String> = []
        var next: String? = sceneID
        while let id = next, visited.insert(id).inserted, visited.count <= 64 {
            if let section = catalog.scenes[id] { sections.append(section) }
            next = definitions[id]?.extends.map { $0 == id ? Self.replacedSceneID(of: id) : $0 }
        }
        return sections
    }

    /// The language of the scene file a value was written in.
    func language(ofFile file: String) -> String {
        language(of: Self.sceneID(ofFileNamed: URL(filePath: file).lastPathComponent)) ?? "en"
    }
}

/// What a scene shows translated into one language: applied to its chosen variant when it
/// is assembled.
struct SceneTranslation {
    let catalog: MessageCatalog
    let sections: [MessageCatalog.SceneSection]
    /// Whether the words are shown in the pseudo-locale: the modules' messages are accented
    /// as they are formatted (`MessageLocale/isPseudo`); tabs and confirmations here.
    var isPseudo = false

    /// The translation into the pseudo-locale, `en-XA`.
    static let pseudo = SceneTranslation(
        catalog: MessageCatalog(language: PseudoLocale.identifier, file: "", source: []), sections: [], isPseudo: true)

    /// A module instance with its messages in the catalog's language: the scene's section
    /// first (in place of what the scene files set), then, for a message the scene files
    /// leave to the module, the module type's translation (in place of its default, so it
    /// is used as the default is: as written). A translation that is no valid value of its
    /// parameter (it does not parse, or uses an argument the module does not give) is left
    /// out, as the validator reports it: the page shows the original, where it would fail
    /// to assemble.
    func translated(_ instance: ModuleInstance, descriptor: ModuleDescriptor) -> (instance: ModuleInstance, defaults: [String: JSONValue]) {
        var instance = instance
        var defaults: [String: JSONValue] = [:]
        for spec in descriptor.parameters where spec.messageArguments != nil {
            if let entry = sections.lazy.compactMap({ $0.params[instance.id.rawValue]?[spec.name] }).first {
                if isValid(entry, for: spec) { instance.parameters[spec.name] = .string(entry.text) }
                continue
            }
            guard instance.parameters[spec.name] == nil, let entry = catalog.modules[instance.type]?[spec.name], isValid(entry, for: spec)
            else { continue }
            defaults[spec.name] = .string(entry.text)
        }
        return (instance, defaults)
    }

    /// Whether a translation is a valid value of the parameter (`ParameterSpec.messageProblem(in:)`),
    /// remembered by the catalog.
    private func isValid(_ entry: MessageCatalog.Entry, for spec: ParameterSpec) -> Bool {
        let key = entry.path + "\u{1F}" + (spec.messageArguments ?? []).map { "\($0.name):\($0.type)" }.joined(separator: ",")
        if let known = catalog.validity.withLock({ $0[key] }) { return known }
        let valid = spec.messageProblem(in: entry.text) == nil
        catalog.validity.withLock { $0[key] = valid }
        return valid
    }

    /// A layout with its tab titles translated.
    func translated(_ layout: [LayoutItem]) -> [LayoutItem] {
        layout.map { item in
            guard case .tabs(let id, let tabs) = item else { return item }
            return .tabs(
                id: id,
                tabs: tabs.map { tab in
                    var tab = tab
                    if isPseudo {
                        tab.title = PseudoLocale.transformed(tab.title)
                    } else if let title = sections.lazy.compactMap({ $0.tabs[tab.id] }).first {
                        tab.title = title.text
                    }
                    return tab
                })
        }
    }

    /// Rules with their confirmations translated.
    func translated(_ rules: [EventRule]) -> [EventRule] {
        rules.map { rule in
            if isPseudo { return Self.pseudolocalized(rule) }
            guard let texts = sections.lazy.compactMap({ $0.confirmations[rule.on] }).first else { return rule }
            var rule = rule
            rule.steps = rule.steps.map { step in
                guard case .confirm(var confirmation) = step else { return step }
                if let title = texts["title"] { confirmation.title = title.text }
                if let message = texts["message"] { confirmation.message = message.text }
                if let confirm = texts["confirm"] { confirmation.confirmLabel = confirm.text }
                if let cancel = texts["cancel"] { confirmation.cancelLabel = cancel.text }
                return .confirm(confirmation)
            }
            return rule
        }
    }

    private static func pseudolocalized(_ rule: EventRule) -> EventRule {
        var rule = rule
        rule.steps = rule.steps.map { step in
            guard case .confirm(var confirmation) = step else { return step }
            confirmation.title = PseudoLocale.transformed(confirmation.title)
            confirmation.message = confirmation.message.map(PseudoLocale.transformed)
            confirmation.confirmLabel = PseudoLocale.transformed(confirmation.confirmLabel)
            confirmation.cancelLabel = PseudoLocale.transformed(confirmation.cancelLabel)
            return .confirm(confirmation)
        }
        return rule
    }
}
