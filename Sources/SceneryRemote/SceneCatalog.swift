import Scenery

/// The scenes an app runs, from several sources: each new version of a scene file becomes
/// active only once it is compatible with the app and valid with the app's module types
/// and the other active scenes; otherwise the version the app had stays, and the offer
/// says why.
///
/// Start from a registry with the app's module types and its bundled scenes (the first
/// layer); offer newer versions from elsewhere (a server, a cache) as they arrive:
///
/// ```swift
/// var registry = SceneRegistry()
/// registry.register(BlogModule.self) { … }
/// registry.addScenes(sources: bundledScenes)            // shipped with the app
/// var catalog = SceneCatalog(registry: registry)
///
/// let offers = catalog.offer([SceneDocument(id: "user-profile", source: text, origin: "https://example.com/scenes/user-profile.json")])
/// for offer in offers where !offer.isActive {
///     report(offer.diagnostics)                          // file:line:column, and which source
/// }
/// let scene = try await catalog.registry.assemble("user-profile", for: context, host: host)
/// ```
///
/// Compatibility follows the file's `format`, `requires` and `fallback` (see
/// the Scene files guide in Scenery's documentation): a file that needs more than the app has either keeps the
/// previous version or runs without the modules the app lacks, never a crash or a blank
/// screen. A new version must also leave every scene that extends it valid.
public struct SceneCatalog: Sendable {
    /// The active scenes, with the module types they run on.
    public private(set) var registry: SceneRegistry
    /// Where each scene's active version came from (scenes of the starting registry: `bundled`).
    public private(set) var origins: [String: String]

    /// The first layer, as given: what a withdrawn scene goes back to.
    private let firstLayer: SceneRegistry
    private let firstOrigin: String

    /// A catalog whose first layer is a registry's scenes.
    public init(registry: SceneRegistry, origin: String = "bundled") {
        self.registry = registry
        firstLayer = registry
        firstOrigin = origin
        origins = Dictionary(uniqueKeysWithValues: registry.sceneIDs.map { ($0, origin) })
    }

    /// Withdraws the offered version of a scene (its source no longer publishes it): the
    /// first layer's version comes back, or the scene goes if the first layer has none. A
    /// withdrawal that would break a scene extending it is refused, like an offer.
    @discardableResult
    public mutating func withdraw(_ sceneID: String, origin: String) -> SceneOffer {
        let document = SceneDocument(id: sceneID, source: firstLayer.source(of: sceneID) ?? "", origin: origin)
        guard origins[sceneID] != nil, origins[sceneID] != firstOrigin else {
            return SceneOffer(document: document, outcome: .unchanged, diagnostics: [])
        }
        var trial = registry
        if let definition = firstLayer.definition(of: sceneID), let source = firstLayer.source(of: sceneID) {
            trial.setScene(id: sceneID, definition: definition, bytes: Array(source.utf8), parseDiagnostics: [])
        } else {
            trial.removeScene(id: sceneID)
        }
        let problems = trial.scenes(extending: sceneID).flatMap { trial.diagnostics(for: $0) }
        if problems.contains(where: { $0.severity == .error }) {
            return SceneOffer(document: document, outcome: .rejected, diagnostics: problems)
        }
        registry = trial
        origins[sceneID] = firstLayer.definition(of: sceneID) == nil ? nil : firstOrigin
        return SceneOffer(document: document, outcome: .activated, diagnostics: [])
    }

    /// Offers new versions of scene files, in order; each is checked and, if it passes,
    /// becomes the active version of its scene. Returns what became of each.
    @discardableResult
    public mutating func offer(_ documents: [SceneDocument]) -> [SceneOffer] {
        documents.map { offer($0) }
    }

    /// Offers one new version of a scene file.
    @discardableResult
    public mutating func offer(_ document: SceneDocument) -> SceneOffer {
        let bytes = Array(document.source.utf8)
        if registry.source(of: document.id) == document.source, origins[document.id] != nil {
            return SceneOffer(document: document, outcome: .unchanged, diagnostics: [])
        }
        var parser = SceneFileParser(file: document.origin, id: document.id)
        guard var definition = parser.parse(bytes) else {
            return SceneOffer(document: document, outcome: .rejected, diagnostics: parser.diagnostics)
        }
        var notes: [Diagnostic] = []
        let unmet = registry.unmetRequirements(of: definition)
        if let format = unmet.first(where: { if case .format = $0 { true } else { false } }) {
            return reject(
                document, definition, "This version is not used because \(format); the previous version stays. Update the app to run it.", path: "format")
        }
        if !unmet.isEmpty {
            switch definition.requirements.fallback {
            case .previous:
                let reasons = unmet.map(\.description).joined(separator: "; ")
                return reject(
                    document, definition,
                    "This version is not used because \(reasons); the previous version stays (\"fallback\": \"previous\"). Update the app, or let the scene say \"fallback\": \"drop\".",
                    path: unmet.first?.moduleType.map { definition.requirements.modules[$0] != nil ? "requires.\($0)" : "modules" } ?? "")
            case .drop:
                let types = Set(unmet.compactMap(\.moduleType))
                let (reduced, left) = definition.leavingOut(types: types)
                for instance in left {
                    let reason = unmet.first { $0.moduleType == instance.type }.map(\.description) ?? "it cannot run here"
                    notes.append(
                        Diagnostic(
                            .warning, "Left out the module '\(instance.id)' (\(instance.type)): \(reason) (\"fallback\": \"drop\").",
                            file: document.origin, location: definition.location(of: instance.path), path: instance.path))
                }
                definition = reduced
            }
        }
        // Tried on a copy: the active scenes change only if this version and every scene
        // that extends it stay valid.
        var trial = registry
        trial.setScene(id: document.id, definition: definition, bytes: bytes, parseDiagnostics: parser.diagnostics)
        let affected = [document.id] + trial.scenes(extending: document.id)
        let problems = affected.flatMap { trial.diagnostics(for: $0) }
        if problems.contains(where: { $0.severity == .error }) {
            return SceneOffer(document: document, outcome: .rejected, diagnostics: notes + problems)
        }
        registry = trial
        origins[document.id] = document.origin
        let outcome: SceneOffer.Outcome = notes.isEmpty ? .activated : .activatedWithout(notes.count)
        return SceneOffer(document: document, outcome: outcome, diagnostics: notes + problems)
    }

    private func reject(_ document: SceneDocument, _ definition: SceneDefinition, _ message: String, path: String) -> SceneOffer {
        SceneOffer(
            document: document, outcome: .rejected,
            diagnostics: [Diagnostic(.error, message, file: document.origin, location: definition.location(of: path), path: path)])
    }
}

/// One version of one scene file, from somewhere.
public struct SceneDocument: Sendable, Hashable {
    /// The scene id (the file name without `.json`).
    public var id: String
    /// The text of the file.
    public var source: String
    /// Where it came from, as diagnostics name it: a URL, a cache path, `bundled`.
    public var origin: String
    /// The source's version tag (an HTTP ETag, for instance), if it has one.
    public var tag: String?

    public init(id: String, source: String, origin: String, tag: String? = nil) {
        self.id = id
        self.source = source
        self.origin = origin
        self.tag = tag
    }
}

/// What became of an offered scene file.
public struct SceneOffer: Sendable {
    /// Whether the version was used.
    public enum Outcome: Sendable, Hashable {
        /// It is the active version now.
        case activated
        /// It is the active version now, without this many modules the app cannot run.
        case activatedWithout(Int)
        /// The same text is active already.
        case unchanged
        /// It was not used; the previous version stays. ``SceneOffer/diagnostics`` says why.
        case rejected
    }

    public var document: SceneDocument
    public var outcome: Outcome
    /// Why it was rejected, or what was left out; each names the file (the document's
    /// origin), line and column.
    public var diagnostics: [Diagnostic]

    /// Whether the offered version is the active one.
    public var isActive: Bool { outcome != .rejected }
}

extension SceneRegistry {
    /// The scenes whose `extends` chain passes through a scene.
    func scenes(extending sceneID: String) -> [String] {
        sceneIDs.filter { id in
            var visited: Set<String> = [id]
            var next = definition(of: id)?.extends
            while let parent = next, visited.insert(parent).inserted {
                if parent == sceneID { return true }
                next = definition(of: parent)?.extends
            }
            return false
        }
    }
}
