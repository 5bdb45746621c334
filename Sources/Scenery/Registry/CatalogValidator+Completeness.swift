/// What a catalog leaves out: every text of a scene in the catalog's language, with the
/// scene's wording as the example of what to translate.
extension CatalogValidator {
    /// Everything a scene beside the catalog (in its folder) shows in a language other than
    /// the catalog's must have a translation: the wording its files set (in the scene's
    /// section, or that of a scene it extends), the module types' defaults (in "modules"),
    /// its title, tabs and confirmations. Scenes of other folders (a package that extends
    /// these) answer to their own catalogs.
    mutating func checkCompleteness(of catalog: MessageCatalog) {
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
    mutating func wording(of sceneID: String) -> SceneWording? {
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
    struct SceneWording {
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

    static func folder(of file: String) -> String {
        file.split(separator: "/", omittingEmptySubsequences: false).dropLast().joined(separator: "/")
    }

    /// The folder and language of the files the scenes are written in, memoized.
    final class FileFacts {
        private let registry: SceneRegistry
        private var folders: [String: String] = [:]
        private var languages: [String: String] = [:]

        init(registry: SceneRegistry) {
            self.registry = registry
        }

        func folder(of file: String) -> String {
            if let known = folders[file] { return known }
            let folder = CatalogValidator.folder(of: file)
            folders[file] = folder
            return folder
        }

        func language(ofFile file: String) -> String {
            if let known = languages[file] { return known }
            let language = registry.language(ofFile: file)
            languages[file] = language
            return language
        }
    }

    func sameLanguage(_ written: String, _ language: String) -> Bool {
        written.lowercased() == language.lowercased()
    }

    /// The scene whose file it is (its section is where a translation of it goes).
    static func owner(of file: String) -> String {
        SceneRegistry.sceneID(ofFileNamed: String(file.split(separator: "/").last ?? Substring(file)))
    }

    static func text(of confirmation: Confirmation, field: String) -> String? {
        switch field {
        case "title": confirmation.title
        case "message": confirmation.message
        case "confirm": confirmation.confirmLabel
        default: confirmation.cancelLabel
        }
    }

    /// The `$references` of a template text (`$event.name`, `$user`).
    static func references(in text: String) -> [Template.Reference] {
        guard let template = try? Template(parsing: text, allowsEventFields: true) else { return [] }
        return template.references.map(\.reference)
    }

    static func spelling(of reference: Template.Reference) -> String {
        switch reference {
        case .viewer: "$viewer"
        case .parameter(let name): "$\(name)"
        case .eventField(let field): "$event.\(field)"
        }
    }
}
