/// One language's translations of the wording scenes show: a `<language>.messages.json`
/// file beside the scene files.
///
/// Module types' words are translated once, for every scene that uses them; a scene's own
/// words (a title, a tab, a confirmation, wording a scene file sets) in a section of that
/// scene, which also covers the scenes that extend it:
///
/// ```json
/// { "language": "zh-Hans",
///   "modules": { "BlogModule": { "likesFormat": "赞 {count}", "moreTitle": "加载更多" } },
///   "scenes": {
///     "user-profile": {
///       "title": "个人主页",
///       "params": { "friends": { "emptyText": "还没有好友" } },
///       "tabs": { "blogs": "博客", "drafts": "草稿" },
///       "confirmations": { "user.unfollow": { "title": "确定不再关注$event.name吗?", "confirm": "不再关注", "cancel": "再想想" } } } } }
/// ```
///
/// The registry loads catalogs with the scenes (``SceneRegistry/addMessageCatalogs(files:displayRoot:)``)
/// and shows a scene in a viewer's language (``SceneContext/locale``) when it has one; the
/// validator checks every message against the module's arguments and the language's plural
/// rules, and reports wording a shipped language leaves untranslated.
package struct MessageCatalog: Sendable {
    /// The language the catalog translates into (BCP 47).
    package let language: String
    /// The file, as diagnostics name it.
    package let file: String
    /// Translations of module types' messages: type → parameter → text.
    var modules: [String: [String: Entry]] = [:]
    /// Translations of scenes' own wording, by scene id.
    var scenes: [String: SceneSection] = [:]
    /// The file's text, for positions inside a message.
    let source: [UInt8]
    /// Whether each translation is a valid value of the parameter it translates, by its
    /// path and the parameter's arguments: worked out on the first page that shows it, not
    /// on every page.
    let validity = Locked<[String: Bool]>([:])

    /// One translated text and where it is written.
    struct Entry: Sendable {
        var text: String
        var location: SourcePosition
        var path: String
    }

    /// A scene's own wording in the catalog's language.
    struct SceneSection: Sendable {
        var location: SourcePosition
        var title: Entry?
        /// Module instance id → parameter → text.
        var params: [String: [String: Entry]] = [:]
        /// Tab id → title.
        var tabs: [String: Entry] = [:]
        /// Event name → confirmation field (`title`, `message`, `confirm`, `cancel`) → text.
        var confirmations: [String: [String: Entry]] = [:]
    }

    /// The fields of a confirmation a catalog may translate.
    static let confirmationFields = ["title", "message", "confirm", "cancel"]

    /// Whether a file is a message catalog: `<language>.messages.json`.
    package static func isCatalogFile(_ name: String) -> Bool {
        name.hasSuffix(".messages.json")
    }

    /// Parses a catalog file, collecting every structural problem with its position.
    /// Returns `nil` (with the problems) when the file is not usable at all.
    static func parse(bytes: [UInt8], file: String) -> (MessageCatalog?, [Diagnostic]) {
        var reader = CatalogReader(file: file)
        let catalog = reader.read(bytes)
        return (catalog, reader.diagnostics)
    }

    init(language: String, file: String, source: [UInt8]) {
        self.language = language
        self.file = file
        self.source = source
    }
}

/// Reads a catalog file's JSON into a `MessageCatalog`.
private struct CatalogReader {
    let file: String
    var diagnostics: [Diagnostic] = []

    init(file: String) { self.file = file }

    mutating func error(_ message: String, at location: SourcePosition?, path: String) {
        diagnostics.append(Diagnostic(.error, message, file: file, location: location, path: path))
    }

    mutating func read(_ bytes: [UInt8]) -> MessageCatalog? {
        let root: SourceJSON.Node
        do {
            root = try SourceJSON.parse(bytes: bytes)
        } catch {
            self.error(error.message, at: error.location, path: "")
            return nil
        }
        guard let fields = object(root, path: "", allowed: ["$schema", "language", "modules", "scenes"], what: "a message catalog") else { return nil }
        guard let languageNode = fields["language"] else {
            error(
                "A message catalog needs \"language\": the BCP 47 tag it translates into, such as \"zh-Hans\"; add it.", at: root.location,
                path: "")
            return nil
        }
        guard case .string(let language) = languageNode.value, SceneFileParser.isLanguageTag(language) else {
            error(
                "\"language\" must be a BCP 47 language tag such as \"zh-Hans\" or \"ar\", not \(languageNode.kindDescription).",
                at: languageNode.location, path: "language")
            return nil
        }
        let expectedName = "\(language).messages.json"
        if !file.hasSuffix(expectedName), MessageCatalog.isCatalogFile(file) {
            error(
                "The catalog of \(language.quoted) must be named \(expectedName.quoted), so that its language is seen from its name; rename the file or fix \"language\".",
                at: languageNode.location, path: "language")
        }
        var catalog = MessageCatalog(language: language, file: file, source: bytes)
        if let modules = fields["modules"], let types = object(modules, path: "modules", allowed: nil, what: "\"modules\"") {
            for (type, node) in types.sorted(by: { $0.key < $1.key }) {
                catalog.modules[type] = texts(node, path: "modules.\(type)")
            }
        }
        if let scenes = fields["scenes"], let sections = object(scenes, path: "scenes", allowed: nil, what: "\"scenes\"") {
            for (sceneID, node) in sections.sorted(by: { $0.key < $1.key }) {
                catalog.scenes[sceneID] = section(node, path: "scenes.\(sceneID)")
            }
        }
        return catalog
    }

    private mutating func section(_ node: SourceJSON.Node, path: String) -> MessageCatalog.SceneSection? {
        guard let fields = object(node, path: path, allowed: ["title", "params", "tabs", "confirmations"], what: "a scene's section") else {
            return nil
        }
        var section = MessageCatalog.SceneSection(location: node.location)
        if let title = fields["title"] { section.title = text(title, path: "\(path).title") }
        if let params = fields["params"], let modules = object(params, path: "\(path).params", allowed: nil, what: "\"params\"") {
            for (moduleID, node) in modules { section.params[moduleID] = texts(node, path: "\(path).params.\(moduleID)") }
        }
        if let tabs = fields["tabs"] { section.tabs = texts(tabs, path: "\(path).tabs") }
        if let confirmations = fields["confirmations"],
            let events = object(confirmations, path: "\(path).confirmations", allowed: nil, what: "\"confirmations\"")
        {
            for (event, node) in events {
                let eventPath = "\(path).confirmations.\(event)"
                guard object(node, path: eventPath, allowed: MessageCatalog.confirmationFields, what: "a confirmation") != nil else { continue }
                section.confirmations[event] = texts(node, path: eventPath)
            }
        }
        return section
    }

    /// An object of texts by key.
    private mutating func texts(_ node: SourceJSON.Node, path: String) -> [String: MessageCatalog.Entry] {
        guard let members = object(node, path: path, allowed: nil, what: "\(path.quoted)") else { return [:] }
        var entries: [String: MessageCatalog.Entry] = [:]
        for (key, value) in members {
            if let entry = text(value, path: "\(path).\(key)") { entries[key] = entry }
        }
        return entries
    }

    private mutating func text(_ node: SourceJSON.Node, path: String) -> MessageCatalog.Entry? {
        guard case .string(let text) = node.value else {
            error("\(path.quoted) must be a string (the translated text), not \(node.kindDescription).", at: node.location, path: path)
            return nil
        }
        return MessageCatalog.Entry(text: text, location: node.location, path: path)
    }

    /// The members of an object by key (duplicates and keys not allowed reported), or
    /// `nil` when the node is not an object.
    private mutating func object(_ node: SourceJSON.Node, path: String, allowed: [String]?, what: String) -> [String: SourceJSON.Node]? {
        guard case .object(let members) = node.value else {
            error("\(what) must be a JSON object, not \(node.kindDescription).", at: node.location, path: path)
            return nil
        }
        var fields: [String: SourceJSON.Node] = [:]
        for member in members {
            let memberPath = path.isEmpty ? member.key : "\(path).\(member.key)"
            if fields[member.key] != nil {
                error("The key \(member.key.quoted) appears twice; keep one.", at: member.keyLocation, path: memberPath)
                continue
            }
            if let allowed, !allowed.contains(member.key) {
                let hint = Suggestion.hint(for: member.key, in: allowed.filter { $0 != "$schema" }, listing: "allowed keys")
                error("\(what) has no key \(member.key.quoted)\(hint).", at: member.keyLocation, path: memberPath)
                continue
            }
            fields[member.key] = member.value
        }
        return fields
    }
}
