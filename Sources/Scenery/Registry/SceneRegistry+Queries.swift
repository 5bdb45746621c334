import Foundation
import Synchronization

/// What the registry knows of a scene: its source, definition, title, language,
/// experiments, parameters, variants and problems.
extension SceneRegistry {
    /// The text of a scene's file as it was added, for hosts that publish scenes
    /// (`scenery serve` serves it at `/scenes/<id>.json`).
    public func source(of sceneID: String) -> String? {
        sources[sceneID].map { String(decoding: $0, as: UTF8.self) }
    }

    /// The text of a scene's file for a host to publish (`scenery serve` serves it at
    /// `/scenes/<id>.json` to apps that take newer scenes): only a file that parsed as a
    /// scene, its own shape right. Its modules may still have errors: the app that takes it
    /// checks them against its own module types. Any other file of the folder (JSON that is
    /// no scene, such as a `settings.json`; a file that is not JSON; one that could not be
    /// read, or a link out of the folder) has nothing to publish.
    public func publishableSource(of sceneID: String) -> String? {
        guard definitions[sceneID] != nil, !(unparsable[sceneID] ?? []).containsErrors else { return nil }
        return source(of: sceneID)
    }

    /// The ids of all known scenes, sorted, including scenes with errors (not the scenes
    /// others replaced and build on).
    public var sceneIDs: [String] {
        Set(definitions.keys).subtracting(replacedScenes.values).union(unparsable.filter { !$0.value.isEmpty }.keys).sorted()
    }

    /// The hidden id under which a scene replaced by one that extends it is kept: the
    /// scene's id and `/replaced`, which no file name can give.
    static func replacedSceneID(of id: String) -> String {
        "\(id)/replaced"
    }

    /// The definition of a scene, if it could be parsed.
    package func definition(of sceneID: String) -> SceneDefinition? {
        definitions[sceneID]
    }

    /// A scene's title, from its file or the nearest scene it extends that has one.
    public func title(of sceneID: String) -> String? {
        inherited(sceneID) { $0.title }
    }

    /// The experiments a scene runs, its own and those it inherits, in the order they apply;
    /// empty for an unknown or invalid scene.
    ///
    /// ```swift
    /// for experiment in registry.experiments(of: "user-profile") {
    ///     print(experiment.name, experiment.arms.map(\.name))   // friends-layout ["carousel", "compact"]
    /// }
    /// ```
    package func experiments(of sceneID: String) -> [Experiment] {
        ((try? resolve(sceneID))?.experiments ?? []).map(\.experiment)
    }

    /// A scene's language (BCP 47), from its file or the nearest scene it extends that has one.
    public func language(of sceneID: String) -> String? {
        inherited(sceneID) { $0.language }
    }

    /// A field of a scene or, when it has none, of the scenes it extends (cycles end the search).
    func inherited(_ sceneID: String, _ field: (SceneDefinition) -> String?) -> String? {
        var visited: Set<String> = []
        var next: String? = sceneID
        while let id = next, visited.insert(id).inserted, let definition = definitions[id] {
            if let value = field(definition) { return value }
            next = definition.extends
        }
        return nil
    }

    /// Every problem of a scene: its file's syntax and structure, and its validation.
    public func diagnostics(for sceneID: String) -> [Diagnostic] {
        let all = (unparsable[sceneID] ?? []) + problems(of: sceneID)
        return all.sorted { ($0.location ?? SourcePosition(line: 0, column: 0)) < ($1.location ?? SourcePosition(line: 0, column: 0)) }
    }

    /// Every problem of every scene.
    public var allDiagnostics: [Diagnostic] {
        _ = problems  // validate everything once, so per-scene reads below agree
        return sceneIDs.flatMap(diagnostics(for:)) + messageCatalogDiagnostics + themeDiagnostics
    }

    /// The parameters of a scene, inherited ones included (`extends`).
    public func parameters(of sceneID: String) -> [ParameterSpec] {
        (try? resolve(sceneID))?.parameters ?? definitions[sceneID]?.parameters ?? []
    }

    /// The names of the variants of a scene, in the order they are tried, ending with the
    /// scene's base ("default").
    public func variantNames(of sceneID: String) -> [String] {
        guard let resolved = try? resolve(sceneID) else { return [] }
        return resolved.variants.map(\.name)
    }

    /// How many scenes were validated one by one since the registry last changed (for tests
    /// that check that running a scene costs that scene only).
    var validatedSceneCount: Int {
        validation.state.withLock { $0.byScene.count }
    }

    /// How many scene definitions the validation applied while resolving `extends` chains
    /// (for tests that check that a chain of n scenes costs n, not n²).
    var appliedDefinitionCount: Int {
        validation.state.withLock { $0.validator?.resolutions.appliedDefinitions ?? $0.appliedByAll }
    }

    /// Forgets the validation; the next read of diagnostics validates again.
    mutating func revalidate() {
        validation = ValidationCache()
    }
}
