import Foundation
import Scenery
import SceneryProfile
import SceneryScenes

/// The module types, scenes and services a `scenery` tool knows, composed from parts.
///
/// Scenery's own tool runs ``profile``: the profile modules and the bundled scenes. An outside
/// package adds its modules with `+` and gets every command — `run`, `interact`, `serve`,
/// `validate`, `list`, `data` — for them:
///
/// ```swift
/// extension ModuleCatalog {
///     static let recycleBin = ModuleCatalog(
///         modules: [RecycleBinModule.descriptor],
///         scenes: Bundle.module.resourceURL?.appending(path: "Scenes"),
///         services: [.recycleBin]
///     ) { registry, services in
///         let bin = FaultyRecycleBin(base: DemoRecycleBin.shared, injector: services.faults)
///         registry.register(RecycleBinModule.self) { parameters, context in
///             try RecycleBinModule(parameters: parameters, context: context, bin: bin)
///         }
///     }
/// }
///
/// await SceneryTool.main(catalog: .profile + .recycleBin)
/// ```
///
/// Scenes are added in the order of the parts, so a later part's scene replaces an earlier
/// one with its id and may extend any of them; `--scenes DIR` goes over all of them.
public struct ModuleCatalog: Sendable {
    /// Registers a part's module types with their services.
    public typealias Registration = @Sendable (inout SceneRegistry, ToolServices) throws -> Void

    /// The module types, for commands that need no data (`validate`, `list`).
    public private(set) var modules: [ModuleDescriptor]
    /// The names `--fail` and `--latency` accept.
    public private(set) var services: [ServiceName]
    /// Events the catalog's hosts handle (see `SceneRegistry/declareHostEvents(_:)`).
    public private(set) var hostEvents: [String]
    private var sceneFolders: [SceneFolder]
    private var registrations: [Registration]

    /// The scene files of a folder (listed once, when the catalog is made), and the name
    /// diagnostics give the folder.
    private struct SceneFolder: Sendable {
        var files: [URL]
        var displayRoot: URL
    }

    private init(
        modules: [ModuleDescriptor], sceneFolders: [SceneFolder], services: [ServiceName], hostEvents: [String], registrations: [Registration]
    ) {
        self.modules = modules
        self.sceneFolders = sceneFolders
        self.services = services
        self.hostEvents = hostEvents
        self.registrations = registrations
    }

    /// Creates a catalog part.
    ///
    /// - Parameters:
    ///   - modules: The descriptors of the module types `register` registers.
    ///   - scenes: A folder of scene files that come with the modules (usually the package's
    ///     resources), or `nil`.
    ///   - services: The names of the services the modules call, for `--fail` and `--latency`.
    ///   - hostEvents: Events that end at the host by design (not reported by the event lint).
    ///   - register: Registers each module type with its services, when a command runs scenes.
    public init(
        modules: [ModuleDescriptor], scenes: URL? = nil, services: [ServiceName] = [], hostEvents: [String] = [],
        register: @escaping Registration
    ) {
        let folders = scenes.map { [SceneFolder(files: (try? SceneRegistry.sceneFiles(in: $0)) ?? [], displayRoot: $0)] } ?? []
        self.init(modules: modules, sceneFolders: folders, services: services, hostEvents: hostEvents, registrations: [register])
    }

    /// Scenery's profile modules (`UserInfoModule`, `BlogModule`, `BlogPostModule`,
    /// `DraftModule`, `UserListModule`) over the tool's database, and the bundled scenes.
    public static let profile = ModuleCatalog(
        modules: ProfileModules.descriptors, sceneFolders: [SceneFolder(files: BundledScenes.files, displayRoot: BundledScenes.displayRoot)],
        services: ServiceName.profileServices, hostEvents: [],
        registrations: [{ registry, services in registry.registerProfileModules(services.profiles) }])

    /// Both catalogs: the module types, services and host events of each, and the scenes of
    /// `rhs` over those of `lhs`.
    public static func + (lhs: ModuleCatalog, rhs: ModuleCatalog) -> ModuleCatalog {
        var catalog = lhs
        catalog.modules += rhs.modules
        catalog.services += rhs.services.filter { !lhs.services.contains($0) }
        catalog.hostEvents += rhs.hostEvents
        catalog.sceneFolders += rhs.sceneFolders
        catalog.registrations += rhs.registrations
        return catalog
    }

    /// The ids of the catalog's scenes, sorted (from the folders listed when it was made).
    public var sceneIDs: [String] {
        Set(sceneFolders.flatMap(\.files).map { $0.deletingPathExtension().lastPathComponent }).sorted()
    }

    /// A registry with the catalog's module types and scenes (read, not yet validated).
    ///
    /// - Parameter services: The data for the modules; `nil` declares the module types for
    ///   validation only.
    /// - Throws: `SceneryError` if a scene folder cannot be read, or what a registration throws.
    public func registry(services: ToolServices?) throws -> SceneRegistry {
        var registry = SceneRegistry()
        if let services {
            for register in registrations { try register(&registry, services) }
        } else {
            for descriptor in modules { registry.declare(descriptor) }
        }
        registry.declareHostEvents(hostEvents)
        for folder in sceneFolders {
            try registry.addScenes(files: folder.files, displayRoot: folder.displayRoot)
        }
        return registry
    }
}

extension ModuleCatalog {
    /// The catalog of the tool that is running (``SceneryTool/main(catalog:)`` sets it).
    @TaskLocal static var current: ModuleCatalog = .profile
}
