import Foundation
import Scenery
import SceneryExperiments
import SceneryFaults

/// The module types, scenes and services a `scenery` tool knows, composed from parts.
///
/// An app's catalog names its module types, its scenes, the services `--fail` reaches and how
/// its database opens; its executable is then the whole tool — `run`, `interact`, `connect`,
/// `serve`, `validate`, `list`, `data`, `experiments` — for them:
///
/// ```swift
/// extension ModuleCatalog {
///     static let board = ModuleCatalog(
///         modules: [TaskModule.descriptor],
///         scenes: Bundle.module.resourceURL?.appending(path: "Scenes"),
///         services: [.tasks],
///         databases: [.boardFiles]
///     ) { registry, services in
///         let board = try services.store(as: BoardToolStore.self).board
///         registry.register(TaskModule.self) { parameters, context in
///             try TaskModule(parameters: parameters, context: context, board: board)
///         }
///     }
/// }
///
/// await SceneryTool.main(catalog: .board)
/// ```
///
/// Parts combine with `+`: Scenery's demo is `.profile` (in the `ProfileDemoTool` library), and
/// an outside package that adds modules to it runs `catalog: .profile + .recycleBin`. Scenes
/// are added in the order of the parts, so a later part's scene replaces an earlier one with
/// its id and may extend any of them; `--scenes DIR` goes over all of them. The database
/// kinds of every part are tried in order, so the first part that names a file kind owns
/// `--database PATH`.
public struct ModuleCatalog: Sendable {
    /// Registers a part's module types with their services.
    public typealias Registration = @Sendable (inout SceneRegistry, ToolServices) throws -> Void

    /// The module types, for commands that need no data (`validate`, `list`).
    ///
    /// Made when first asked for: a command that runs scenes registers its module types
    /// through the catalog's registrations and never builds this list.
    public var modules: [ModuleDescriptor] { moduleLists.flatMap(\.value) }
    /// The names `--fail` and `--latency` accept.
    public private(set) var services: [ServiceName]
    /// Events the catalog's hosts handle (see `SceneRegistry.declareHostEvents(_:)`).
    public private(set) var hostEvents: [String]
    /// How the catalog's data opens from `--database`, in order.
    public private(set) var databases: [ToolDatabase]
    /// Subcommands of `data` beyond `import`, `export` and `reset` (the demo's `generate`).
    package private(set) var dataCommands: [ToolCommand] = []
    /// Folders of pictures the data names by path (`/pictures/alice.svg`), which `serve`
    /// serves at `/pictures/NAME`; a later part's folder is looked in after an earlier one's.
    public var pictureFolders: [URL] { pictureFolderLookups.compactMap(\.value) }
    private var moduleLists: [Deferred<[ModuleDescriptor]>]
    private var sceneFolders: [Deferred<SceneFolder?>]
    private var pictureFolderLookups: [Deferred<URL?>] = []
    /// The tables the parts keep in the app's database, for every kind of store.
    package private(set) var partSchemas: [any PartSchema] = []
    /// The data the parts keep in the app's database, for every kind of store.
    package private(set) var partData: [any PartData] = []
    private var registrations: [Registration]

    /// The scene files of a folder (listed once, when a command first needs them), and the
    /// name diagnostics give the folder.
    private struct SceneFolder: Sendable {
        var files: [URL]
        var displayRoot: URL
    }

    private init(
        moduleLists: [Deferred<[ModuleDescriptor]>], sceneFolders: [Deferred<SceneFolder?>], services: [ServiceName], hostEvents: [String],
        databases: [ToolDatabase], registrations: [Registration]
    ) {
        self.moduleLists = moduleLists
        self.sceneFolders = sceneFolders
        self.services = services
        self.hostEvents = hostEvents
        self.databases = databases
        self.registrations = registrations
    }

    /// Creates a catalog part.
    ///
    /// `modules` and `scenes` are evaluated when a command first needs them, not when the
    /// catalog is made: `TOOL --version` builds no descriptor and lists no folder.
    ///
    /// - Parameters:
    ///   - modules: The descriptors of the module types `register` registers.
    ///   - scenes: A folder of scene files that come with the modules (usually the package's
    ///     resources), or `nil`.
    ///   - services: The names of the services the modules call, for `--fail` and `--latency`.
    ///   - hostEvents: Events that end at the host by design (not reported by the event lint).
    ///   - databases: How the part's data opens from `--database` (a file kind, a server
    ///     kind), if the part owns the tool's data.
    ///   - register: Registers each module type with its services, when a command runs scenes.
    public init(
        modules: @autoclosure @escaping @Sendable () -> [ModuleDescriptor], scenes: @autoclosure @escaping @Sendable () -> URL? = nil,
        services: [ServiceName] = [], hostEvents: [String] = [], databases: [ToolDatabase] = [], register: @escaping Registration
    ) {
        self.init(
            modules: modules(), sceneFiles: scenes().map { ((try? SceneRegistry.sceneFiles(in: $0)) ?? [], $0) }, services: services,
            hostEvents: hostEvents, databases: databases, register: register)
    }

    /// A catalog part whose scene files are listed already (`displayRoot` names their folder
    /// in diagnostics), with subcommands of `data` of its own.
    package init(
        modules: @autoclosure @escaping @Sendable () -> [ModuleDescriptor],
        sceneFiles: @autoclosure @escaping @Sendable () -> (files: [URL], displayRoot: URL)?, services: [ServiceName], hostEvents: [String] = [],
        databases: [ToolDatabase], dataCommands: [ToolCommand] = [], register: @escaping Registration
    ) {
        let folder = Deferred { sceneFiles().map { SceneFolder(files: $0.files, displayRoot: $0.displayRoot) } }
        self.init(
            moduleLists: [Deferred(modules)], sceneFolders: [folder], services: services, hostEvents: hostEvents, databases: databases,
            registrations: [register])
        self.dataCommands = dataCommands
    }

    /// The catalog with a folder of pictures its data names by path (`/pictures/NAME`): a
    /// demo's people, shipped with the package as resources and served by `serve`.
    ///
    /// ```swift
    /// static let board = ModuleCatalog(modules: [TaskListModule.descriptor]) { _, _ in }
    ///     .servingPictures(from: Bundle.module.url(forResource: "Pictures", withExtension: nil))
    /// ```
    ///
    /// The folder is looked up when `serve` first needs it.
    public func servingPictures(from folder: @autoclosure @escaping @Sendable () -> URL?) -> ModuleCatalog {
        var catalog = self
        catalog.pictureFolderLookups.append(Deferred(folder))
        return catalog
    }

    /// The catalog with tables its part keeps in the app's database: one schema for each
    /// kind of database the part runs on (`SiteSchema` for SQLite files,
    /// `PostgresSiteSchema` for PostgreSQL), all under the part's name.
    ///
    /// ```swift
    /// static let guestbook = ModuleCatalog(modules: [GuestbookModule.descriptor]) { registry, services in
    ///     let site = try services.siteStore()
    ///     registry.register(GuestbookModule.self) { parameters, context in
    ///         try GuestbookModule(parameters: parameters, context: context, book: Guestbook(on: site))
    ///     }
    /// }
    /// .addingTables(
    ///     SiteSchema(app: "guestbook", steps: ["CREATE TABLE guestbook_messages (id INTEGER PRIMARY KEY, text TEXT NOT NULL)"]),
    ///     PostgresSiteSchema(app: "guestbook", steps: ["CREATE TABLE guestbook_messages (id BIGSERIAL PRIMARY KEY, text TEXT NOT NULL)"]))
    /// ```
    ///
    /// The database the tool opens (``ToolDatabase``) brings every part's tables up to date
    /// with its own, in one transaction, when it opens: a step that fails names its part and
    /// changes no part's tables. Its kind takes the schemas of its own kind with
    /// ``ToolDatabase/OpenOptions/schemas(of:)``.
    public func addingTables(_ schemas: any PartSchema...) -> ModuleCatalog {
        var catalog = self
        catalog.partSchemas += schemas
        return catalog
    }

    /// The catalog with the data its part keeps in the app's database: one data set for
    /// each kind of database the part runs on (`SiteDataSet` for SQLite files,
    /// `PostgresDataSet` for PostgreSQL), under the name of its tables.
    ///
    /// ```swift
    /// static let guestbook = ModuleCatalog(modules: [GuestbookModule.descriptor]) { … }
    ///     .addingTables(Guestbook.sqliteTables, Guestbook.postgresTables)
    ///     .addingData(Guestbook.sqliteData, Guestbook.postgresData)
    /// ```
    ///
    /// `data export` then writes one file of every part's data with the app's own
    /// (`{"format": "scenery.site-data", "parts": {…}}`), `data import` replaces every part's
    /// data from such a file in one transaction (a problem in any part changes nothing in
    /// any part), and `data reset` puts back every part's demo data. The app's store takes
    /// part through ``ToolStore/appDataSet``.
    public func addingData(_ dataSets: any PartData...) -> ModuleCatalog {
        var catalog = self
        catalog.partData += dataSets
        return catalog
    }

    /// The catalog the running tool was given.
    package static var running: ModuleCatalog { current }

    /// No modules, no scenes and no data: what a tool runs before it is given a catalog.
    static let empty = ModuleCatalog(moduleLists: [], sceneFolders: [], services: [], hostEvents: [], databases: [], registrations: [])

    /// Both catalogs: the module types, services and host events of each, and the scenes of
    /// `rhs` over those of `lhs`.
    public static func + (lhs: ModuleCatalog, rhs: ModuleCatalog) -> ModuleCatalog {
        var catalog = lhs
        catalog.moduleLists += rhs.moduleLists
        catalog.services += rhs.services.filter { !lhs.services.contains($0) }
        catalog.hostEvents += rhs.hostEvents
        catalog.databases += rhs.databases
        catalog.dataCommands += rhs.dataCommands
        catalog.pictureFolderLookups += rhs.pictureFolderLookups
        catalog.partSchemas += rhs.partSchemas
        catalog.partData += rhs.partData
        catalog.sceneFolders += rhs.sceneFolders
        catalog.registrations += rhs.registrations
        return catalog
    }

    /// The ids of the catalog's scenes, sorted (from its folders, listed once).
    public var sceneIDs: [String] {
        Set(sceneFolders.compactMap(\.value).flatMap(\.files).map { $0.deletingPathExtension().lastPathComponent }).sorted()
    }

    /// A registry with the catalog's module types and scenes (read, not yet validated).
    ///
    /// - Parameter services: The data for the modules; `nil` declares the module types for
    ///   validation only.
    /// - Throws: `SceneryError` if a scene folder cannot be read, or what a registration throws.
    public func registry(services: ToolServices?) throws -> SceneRegistry {
        try registry(services: services, including: .all)
    }

    /// A registry with the catalog's module types and scenes, and of the files beside the
    /// scenes only the kinds in `resources`: a command that shows nothing in colour or in
    /// another language reads no theme and no message catalog.
    package func registry(services: ToolServices?, including resources: SceneResources) throws -> SceneRegistry {
        var registry = SceneRegistry()
        if let services {
            var owners: [String: Int] = [:]
            for (index, register) in registrations.enumerated() {
                let before = registry.factoryRegistrations
                try register(&registry, services)
                for (type, count) in registry.factoryRegistrations where count > before[type] ?? 0 {
                    if let first = owners[type], first != index { throw twoParts(register: type, first, index) }
                    owners[type] = index
                }
            }
        } else {
            for descriptor in modules { registry.declare(descriptor) }
        }
        registry.declareHostEvents(hostEvents)
        for case let folder? in sceneFolders.map(\.value) {
            // The message catalogs and themes beside the folder's scene files come with them.
            if let directory = folder.files.first?.deletingLastPathComponent() {
                if resources.contains(.translations) {
                    registry.addMessageCatalogs(files: (try? SceneRegistry.messageCatalogFiles(in: directory)) ?? [], displayRoot: folder.displayRoot)
                }
                if resources.contains(.themes) {
                    registry.addThemes(files: (try? SceneRegistry.themeFiles(in: directory)) ?? [], displayRoot: folder.displayRoot)
                }
            }
            try registry.addScenes(files: folder.files, displayRoot: folder.displayRoot)
        }
        return registry
    }
}

extension ModuleCatalog {
    /// The error of a catalog of which two parts register one module type (the later would
    /// silently replace the other), naming both parts by their module types.
    private func twoParts(register type: String, _ first: Int, _ second: Int) -> SceneryError {
        func part(_ index: Int) -> String { "the part of \(moduleLists[index].value.map(\.type).joined(separator: ", "))" }
        return SceneryError(
            .invalidArgument,
            "Two parts of this tool register the module type '\(type)': \(part(first)), and \(part(second)). The later would replace the other; rename the module type of one of them."
        )
    }
}

/// The files beside a catalog's scenes a command reads: themes (`*.tokens.json`) and
/// translations (`*.messages.json`).
package struct SceneResources: OptionSet, Sendable {
    package let rawValue: Int
    package init(rawValue: Int) { self.rawValue = rawValue }

    /// The themes, for a page in colour (`serve`, `run --format html --theme NAME`).
    package static let themes = SceneResources(rawValue: 1 << 0)
    /// The message catalogs, for a scene shown in another language (`--locale`).
    package static let translations = SceneResources(rawValue: 1 << 1)
    /// Both.
    package static let all: SceneResources = [.themes, .translations]
}

extension ModuleCatalog {
    /// The catalog of the tool that is running (``SceneryTool/main(catalog:)`` sets it).
    @TaskLocal static var current: ModuleCatalog = .empty
}
