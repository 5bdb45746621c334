import Foundation
import Synchronization

/// The module types and scene definitions an app knows, and the place scenes are assembled.
///
/// Register each module type with a factory that hands it its service, load the scene
/// files, then assemble a scene for a context:
///
/// ```swift
/// var registry = SceneRegistry()
/// registry.register(BlogModule.self) { parameters, context in
///     try BlogModule(parameters: parameters, context: context, service: store)
/// }
/// let diagnostics = try registry.loadScenes(in: URL(filePath: "Scenes"))
/// diagnostics.forEach { print($0) }
///
/// let scene = try await registry.assemble(
///     "user-profile", for: SceneContext(viewer: "1", arguments: ["user": "1"]), host: host)
/// let tree = await scene.render()
/// ```
///
/// A registry is a value: build it once at start-up, then share it freely.
public struct SceneRegistry: Sendable {
    /// Creates a module from its validated parameters and its context.
    public typealias ModuleFactory = @Sendable (ModuleParameters, ModuleContext) throws -> any Module

    struct Registration: Sendable {
        var descriptor: ModuleDescriptor
        var factory: ModuleFactory?
    }

    private(set) var registrations: [String: Registration] = [:]
    private(set) var definitions: [String: SceneDefinition] = [:]
    /// For each scene replaced by a file that extends its own id: the hidden id under which
    /// the scene it builds on is kept (``replacedSceneID(of:)``).
    private(set) var replacedScenes: [String: String] = [:]
    /// Problems by scene id, computed when first needed after a change and then kept, so
    /// adding many scenes one by one validates once, not once per scene.
    private var validation = ValidationCache()

    /// The problems of every scene (validates all of them once per version of the registry).
    var problems: [String: [Diagnostic]] {
        validation.state.withLock { state in
            if let all = state.all { return all }
            var validator = SceneValidator(registry: self)
            let problems = validator.validateAll()
            state.all = problems
            state.appliedByAll = validator.resolutions.appliedDefinitions
            state.resolved = validator.resolvedScenes
            return problems
        }
    }

    /// A scene as its validation resolved it, if it was validated (and resolved).
    func validatedResolution(of sceneID: String) -> ResolvedScene? {
        validation.state.withLock { $0.resolved[sceneID] ?? $0.validator?.resolvedScenes[sceneID] }
    }

    /// The problems of one scene: validates only that scene (its file and what it
    /// inherits) unless everything was validated already.
    func problems(of sceneID: String) -> [Diagnostic] {
        validation.state.withLock { state in
            if let all = state.all { return all[sceneID] ?? [] }
            if let one = state.byScene[sceneID] { return one }
            // One validator for every scene asked about: what it resolved for one scene (the
            // scene list, each base of an `extends` chain) serves the next.
            var validator = state.validator ?? SceneValidator(registry: self)
            let problems = validator.validate(only: sceneID)
            state.validator = validator
            state.byScene[sceneID] = problems
            return problems
        }
    }

    /// This registry without its validation cache: what a validator keeps, so that the
    /// cache keeping the validator makes no cycle.
    var detachedFromValidation: SceneRegistry {
        var copy = self
        copy.validation = ValidationCache()
        return copy
    }
    /// Message catalogs by language (``MessageCatalog``).
    var catalogs: [String: MessageCatalog] = [:]
    /// Whether the registry shows scenes in the pseudo-locale (``PseudoLocale``, `en-XA`)
    /// when a viewer asks for it, and lists it in ``translatedLanguages``. Off by default:
    /// it is for developers looking for text a layout cuts off, not for visitors.
    public var offersPseudoLocale = false
    /// Themes by name (``Theme``).
    var themesByName: [String: Theme] = [:]
    /// Problems found reading theme files, by file.
    var themeReadProblems: [String: [Diagnostic]] = [:]
    /// Problems found reading catalog files, by file.
    var catalogReadProblems: [String: [Diagnostic]] = [:]
    /// Problems of files that could not be parsed into a definition at all, by scene id.
    private var unparsable: [String: [Diagnostic]] = [:]
    /// The bytes of each scene's file.
    private var sources: [String: [UInt8]] = [:]

    /// How long a module's first load may take when its scene file gives no `timeout`.
    public var defaultModuleTimeout: Duration = .seconds(10)

    /// Where the scenes this registry assembles record experiment assignments, impressions
    /// and exposures; `nil` (the default) records nothing. See <doc:Experiments>.
    public var impressionSink: (any ImpressionSink)?
    /// When a node reported visible counts as seen; half for one second by default.
    public var impressionRule = ImpressionRule.standard

    /// Decides which load errors trying again cannot fix: a module that fails with one
    /// shows its error block without a retry control. The default recognises
    /// ``PermanentError``; set it to recognise a backend's own errors too.
    ///
    /// ```swift
    /// registry.isPermanentFailure = { error in
    ///     error is any PermanentError || (error as? BackendError)?.isNotFound == true
    /// }
    /// ```
    public var isPermanentFailure: @Sendable (any Error) -> Bool = { $0 is any PermanentError }

    /// Creates a registry.
    ///
    /// - Parameter builtIns: Whether to register the built-in module types
    ///   (``TextModule`` and ``ActionModule``).
    public init(builtIns: Bool = true) {
        guard builtIns else { return }
        register(TextModule.self) { parameters, _ in try TextModule(parameters: parameters) }
        register(ActionModule.self) { parameters, _ in try ActionModule(parameters: parameters) }
    }

    // MARK: Module types

    /// Registers a module type under its descriptor's name, with the factory that creates it.
    ///
    /// Registering a name again replaces the earlier registration.
    public mutating func register(_ descriptor: ModuleDescriptor, factory: @escaping ModuleFactory) {
        registrations[descriptor.type] = Registration(descriptor: descriptor, factory: factory)
        revalidate()
    }

    /// Registers a module type, with the factory that creates it.
    public mutating func register<M: Module>(
        _ type: M.Type, factory: @escaping @Sendable (ModuleParameters, ModuleContext) throws -> M
    ) {
        register(M.descriptor) { parameters, context in try factory(parameters, context) }
    }

    /// The events the app's host handles itself (a share sheet, an editor), declared with
    /// ``declareHostEvents(_:)``. Validation warns about an event a module lets bubble that
    /// no scene rule, default action or host event handles.
    public private(set) var hostEvents: Set<String> = []

    /// Declares events the host handles, so that scenes may leave them to it.
    ///
    /// ```swift
    /// registry.declareHostEvents(["draft.open", "blog.share"])
    /// ```
    public mutating func declareHostEvents(_ names: some Sequence<String>) {
        hostEvents.formUnion(names)
        revalidate()
    }

    /// Declares a module type for validation only: scenes using it validate, but cannot be
    /// assembled until a factory is registered. Tools that check scene files use this.
    ///
    /// A type already registered with a factory stays as registered: its compiled descriptor
    /// is what a manifest is generated from, so a manifest found beside the scene files (a
    /// package's own `Scenes/` folder) never takes the factory away.
    public mutating func declare(_ descriptor: ModuleDescriptor) {
        if registrations[descriptor.type]?.factory != nil { return }
        registrations[descriptor.type] = Registration(descriptor: descriptor, factory: nil)
        revalidate()
    }

    /// The registered module types, sorted by name.
    public var moduleDescriptors: [ModuleDescriptor] {
        registrations.values.map(\.descriptor).sorted { $0.type < $1.type }
    }

    // MARK: Scenes

    /// Loads every `*.json` scene file in a directory (not `*.schema.json` or
    /// `*.modules.json`), validates all
    /// scenes, and returns every problem found.
    ///
    /// Scenes with errors stay known (so ``diagnostics(for:)`` can explain them) but cannot
    /// be assembled; the others work normally.
    /// - Throws: ``SceneryError`` with ``SceneryError/Code/unreadableFile`` if the directory
    ///   cannot be listed.
    public mutating func loadScenes(in directory: URL) throws(SceneryError) -> [Diagnostic] {
        // The folder's message catalogs (`*.messages.json`) and themes (`*.tokens.json`)
        // come with its scenes.
        let catalogs = try Self.messageCatalogFiles(in: directory)
        addMessageCatalogs(files: catalogs, displayRoot: directory)
        addThemes(files: try Self.themeFiles(in: directory), displayRoot: directory)
        let problems = try loadScenes(files: Self.sceneFiles(in: directory), displayRoot: directory)
        return (catalogs.isEmpty ? problems : problems + messageCatalogDiagnostics) + themeDiagnostics
    }

    /// The scene files of a directory (``isSceneFile(_:)``), sorted by name.
    /// - Throws: ``SceneryError`` with ``SceneryError/Code/unreadableFile`` if the directory
    ///   cannot be listed.
    public static func sceneFiles(in directory: URL) throws(SceneryError) -> [URL] {
        try files(in: directory, where: isSceneFile)
    }

    /// The files of a scene directory whose names `include` takes, sorted by name.
    static func files(in directory: URL, where include: (String) -> Bool) throws(SceneryError) -> [URL] {
        do {
            return try FileManager.default.contentsOfDirectory(atPath: directory.path)
                .filter(include).sorted()
                .map { directory.appending(path: $0, directoryHint: .notDirectory) }
        } catch {
            throw SceneryError(
                .unreadableFile,
                "Cannot list the scene directory \(directory.path.quoted): \(error.localizedDescription). Pass an existing directory of scene files.")
        }
    }

    /// How a file of a scene folder is named in diagnostics, and its bytes, read as every
    /// such file is: a regular file of at most ``largestSceneFile`` bytes, and, when it was
    /// listed from `displayRoot`, in that folder (a link out of it is refused: a served folder
    /// never publishes what it points at).
    static func read(_ file: URL, displayRoot: URL?) -> (display: String, contents: Result<Data, RegularFile.Refusal>) {
        let display = displayRoot.map { "\($0.lastPathComponent)/\(file.lastPathComponent)" } ?? file.relativePath
        guard let folder = displayRoot, folder.standardizedFileURL.path == file.deletingLastPathComponent().standardizedFileURL.path else {
            return (display, Result { () throws(RegularFile.Refusal) in try RegularFile.contents(of: file.path, limit: largestSceneFile) })
        }
        return (display, Result { () throws(RegularFile.Refusal) in try RegularFile.contents(of: file.path, limit: largestSceneFile, within: folder.path) })
    }

    /// Reads files beside the scenes (catalogs, themes) as ``read(_:displayRoot:)`` does and
    /// hands each one's bytes to `add`; a file that cannot be read is a problem of its own,
    /// kept in `problems` by its name. Returns every problem found.
    mutating func addFiles(
        _ files: [URL], displayRoot: URL?, kind: String, problems: WritableKeyPath<SceneRegistry, [String: [Diagnostic]]>,
        add: (inout SceneRegistry, [UInt8], String) -> [Diagnostic]
    ) -> [Diagnostic] {
        var found: [Diagnostic] = []
        for file in files {
            let (display, contents) = Self.read(file, displayRoot: displayRoot)
            switch contents {
            case .success(let data):
                found += add(&self, Array(data), display)
            case .failure(let error):
                let problem = Diagnostic(.error, "Cannot read the \(kind): \(error.description); replace it or remove it.", file: display, location: nil)
                self[keyPath: problems][display] = [problem]
                found.append(problem)
            }
        }
        return found
    }

    /// Loads the given scene files, validates all scenes, and returns every problem found.
    ///
    /// - Parameters:
    ///   - files: The scene files; each scene's id is its file name without `.json`.
    ///   - displayRoot: When given, file names in diagnostics are shown relative to
    ///     this directory's parent (`Scenes/user-profile.json`); otherwise as given.
    public mutating func loadScenes(files: [URL], displayRoot: URL? = nil) throws(SceneryError) -> [Diagnostic] {
        try addScenes(files: files, displayRoot: displayRoot)
        _ = problems  // validate everything in one pass, then read it scene by scene
        return files.flatMap { diagnostics(for: Self.sceneID(of: $0)) }
    }

    /// The largest scene file read, in bytes; a larger one is an error of its own.
    public static let largestSceneFile = 4 << 20

    /// Reads scene files without validating them: each scene is validated when it is first
    /// assembled or asked for its diagnostics, so running one scene costs that scene, not the
    /// whole directory. Returns the problems of files that are not scene files at all (not
    /// JSON, not an object, not readable); other problems come from ``diagnostics(for:)``.
    ///
    /// A file that cannot be read (a FIFO, a directory or device named like a scene file, a
    /// symbolic link loop, more than ``largestSceneFile`` bytes, or, for a file in
    /// `displayRoot`, a symbolic link to a file outside that folder) is reported as an error
    /// of its own scene; the other files load as usual. Nothing blocks on a FIFO.
    @discardableResult
    public mutating func addScenes(files: [URL], displayRoot: URL? = nil) throws(SceneryError) -> [Diagnostic] {
        for file in files {
            let id = Self.sceneID(ofFileNamed: file.lastPathComponent)
            let (display, contents) = Self.read(file, displayRoot: displayRoot)
            switch contents {
            case .success(let data):
                addDefinition(id: id, bytes: Array(data), file: display)
            case .failure(let error):
                let problem = Diagnostic(
                    .error, "Cannot read the scene file: \(error.description); replace it with a scene file or remove it.", file: display,
                    location: nil)
                setScene(id: id, definition: nil, bytes: [], parseDiagnostics: [problem])
                sources[id] = nil  // no text to publish
            }
        }
        revalidate()
        return files.flatMap { unparsable[Self.sceneID(of: $0)] ?? [] }
    }

    /// Adds scenes from the text of their files without validating them (see
    /// ``addScenes(files:displayRoot:)``).
    public mutating func addScenes(sources: [(id: String, source: String, file: String)]) {
        for scene in sources { addDefinition(id: scene.id, bytes: Array(scene.source.utf8), file: scene.file) }
        revalidate()
    }

    /// Adds (or replaces) a scene from the text of its file, validates all scenes, and
    /// returns the problems of this scene.
    @discardableResult
    public mutating func addScene(id: String, source: String, file: String? = nil) -> [Diagnostic] {
        addDefinition(id: id, bytes: Array(source.utf8), file: file ?? "\(id).json")
        revalidate()
        return diagnostics(for: id)
    }

    /// The id of the scene in a file: its name without the extension.
    static func sceneID(of file: URL) -> String {
        sceneID(ofFileNamed: file.lastPathComponent)
    }

    static func sceneID(ofFileNamed name: String) -> String {
        guard let dot = name.utf8.lastIndex(of: UInt8(ascii: ".")), dot != name.utf8.startIndex else { return name }
        return String(name[..<dot])
    }

    private mutating func addDefinition(id: String, bytes: [UInt8], file: String) {
        var parser = SceneFileParser(file: file, id: id)
        setScene(id: id, definition: parser.parse(bytes), bytes: bytes, parseDiagnostics: parser.diagnostics)
    }

    /// Puts a parsed scene (or the problems of a file that could not be parsed) in place.
    ///
    /// A scene that extends its own id (`"extends": "user-profile"` in `user-profile.json`)
    /// builds on the scene of that id it replaces: the last one added that does not extend
    /// its own id, kept under a hidden id. Any other scene replaces the id outright.
    mutating func setScene(id: String, definition: SceneDefinition?, bytes: [UInt8], parseDiagnostics: [Diagnostic]) {
        var definition = definition
        if definition?.extends == id {
            if replacedScenes[id] == nil, var replaced = definitions[id] {
                let hidden = Self.replacedSceneID(of: id)
                replaced.id = hidden
                definitions[hidden] = replaced
                sources[hidden] = sources[id]
                replacedScenes[id] = hidden
            }
            // With nothing to build on, `extends` stays the scene's own id: an error that
            // says so when the scene is resolved.
            if let hidden = replacedScenes[id] { definition?.extends = hidden }
        } else if let hidden = replacedScenes.removeValue(forKey: id) {
            definitions[hidden] = nil
            sources[hidden] = nil
        }
        definitions[id] = definition
        unparsable[id] = parseDiagnostics
        sources[id] = bytes
        revalidate()
    }

    /// Forgets a scene (its definition, problems and text).
    mutating func removeScene(id: String) {
        if let hidden = replacedScenes.removeValue(forKey: id) {
            definitions[hidden] = nil
            sources[hidden] = nil
        }
        definitions[id] = nil
        unparsable[id] = nil
        sources[id] = nil
        revalidate()
    }

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
    public func definition(of sceneID: String) -> SceneDefinition? {
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
    public func experiments(of sceneID: String) -> [Experiment] {
        ((try? resolve(sceneID))?.experiments ?? []).map(\.experiment)
    }

    /// A scene's language (BCP 47), from its file or the nearest scene it extends that has one.
    public func language(of sceneID: String) -> String? {
        inherited(sceneID) { $0.language }
    }

    /// A field of a scene or, when it has none, of the scenes it extends (cycles end the search).
    private func inherited(_ sceneID: String, _ field: (SceneDefinition) -> String?) -> String? {
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

/// The validation of a registry's scenes, computed once per version of the registry.
/// A mutation replaces the cache instead of clearing it, so copies never share a stale one.
final class ValidationCache: Sendable {
    struct State {
        /// Every scene's problems, once all were validated.
        var all: [String: [Diagnostic]]?
        /// Problems of scenes validated one at a time.
        var byScene: [String: [Diagnostic]] = [:]
        /// The validator of scenes validated one at a time, kept for the next one.
        var validator: SceneValidator?
        /// Scene definitions applied by the validation of all scenes.
        var appliedByAll = 0
        /// Every scene the validation of all scenes resolved.
        var resolved: [String: ResolvedScene] = [:]
    }

    let state = Mutex(State())
}
