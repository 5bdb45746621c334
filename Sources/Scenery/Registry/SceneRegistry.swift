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
    typealias ModuleFactory = @Sendable (ModuleParameters, ModuleContext) throws -> any Module

    struct Registration: Sendable {
        var descriptor: ModuleDescriptor
        var factory: ModuleFactory?
        /// How many times a factory was registered for the type (a later one replaces).
        var factories = 0
    }

    private(set) var registrations: [String: Registration] = [:]
    /// Module types a tool found in Swift source only, in no manifest: scenes may use them
    /// (their parameters and events unchecked) while the manifest is not yet generated.
    package internal(set) var modulesDeclaredInSwiftOnly: Set<String> = []
    var definitions: [String: SceneDefinition] = [:]
    /// For each scene replaced by a file that extends its own id: the hidden id under which
    /// the scene it builds on is kept (``replacedSceneID(of:)``).
    var replacedScenes: [String: String] = [:]
    /// Problems by scene id, computed when first needed after a change and then kept, so
    /// adding many scenes one by one validates once, not once per scene.
    var validation = ValidationCache()

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
    /// Message catalogs by language (`MessageCatalog`).
    var catalogs: [String: MessageCatalog] = [:]
    /// Whether the registry shows scenes in the pseudo-locale (`en-XA`)
    /// when a viewer asks for it, and lists it in ``translatedLanguages``. Off by default:
    /// it is for developers looking for text a layout cuts off, not for visitors.
    public var offersPseudoLocale = false
    /// Themes by name (`Theme`).
    var themesByName: [String: Theme] = [:]
    /// What made theme files and message catalogs unreadable, by file.
    var readProblems = FileReadProblems()
    /// Problems of files that could not be parsed into a definition at all, by scene id.
    var unparsable: [String: [Diagnostic]] = [:]
    /// The bytes of each scene's file.
    var sources: [String: [UInt8]] = [:]

    /// How long a module's first load may take when its scene file gives no `timeout`.
    public var defaultModuleTimeout: Duration = .seconds(10)

    /// Where the scenes this registry assembles record experiment assignments, impressions
    /// and exposures; `nil` (the default) records nothing. See <doc:Experiments>.
    public var impressionSink: (any ImpressionSink)?
    /// When a node reported visible counts as seen; half for one second by default.
    package var impressionRule = ImpressionRule.standard
    /// What records the activity of the scenes this registry assembles (loads and renders, see
    /// `Activity`): a host's metrics, a development tool. None by default, and then nothing is timed.
    package var activityObservers: [any ActivityObserver] = []

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
    ///   (`TextModule` and `ActionModule`).
    public init(builtIns: Bool = true) {
        guard builtIns else { return }
        register(TextModule.self) { parameters, context in try TextModule(parameters: parameters, context: context) }
        register(ActionModule.self) { parameters, context in try ActionModule(parameters: parameters, context: context) }
    }

    // MARK: Module types

    /// Registers a module type under its descriptor's name, with the factory that creates it.
    ///
    /// Registering a name again replaces the earlier registration.
    public mutating func register(_ descriptor: ModuleDescriptor, factory: @escaping @Sendable (ModuleParameters, ModuleContext) throws -> any Module) {
        let earlier = registrations[descriptor.type]?.factories ?? 0
        registrations[descriptor.type] = Registration(descriptor: descriptor, factory: factory, factories: earlier + 1)
        revalidate()
    }

    /// How many times a factory was registered for each module type: a tool made of parts
    /// finds a type two parts register.
    package var factoryRegistrations: [String: Int] {
        registrations.compactMapValues { $0.factories > 0 ? $0.factories : nil }
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

}

/// What made a registry's theme files and message catalogs unreadable, by file.
struct FileReadProblems: Sendable {
    var themes: [String: [Diagnostic]] = [:]
    var catalogs: [String: [Diagnostic]] = [:]
}
