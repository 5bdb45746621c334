import Foundation
import Scenery
import SceneryExperiments

/// How the tool opens an app's database from `--database` (or `$SCENERY_DATABASE`): a file
/// path, or a URL of one of ``schemes``.
///
/// A catalog part that owns data names its kinds (`ModuleCatalog(databases:…)`), usually a
/// file kind (``files(named:open:)``, an embedded SQLite store) and, in a tool that has the
/// client, a server kind (`postgres://`). A tool that adds no server kind hands a command on
/// a `postgres://` database to `TOOL-serve` (as `scenery` does to `scenery-serve`), which has
/// it:
///
/// ```swift
/// extension ToolDatabase {
///     static let boardFiles = ToolDatabase.files(named: "board.sqlite") { path, options in
///         try BoardToolStore(board: BoardStore(path: path, seedDemoData: options.seedDemoData))
///     }
/// }
///
/// await SceneryTool.main(catalog: .board, adding: [.serve], databases: [.boardPostgres])
/// ```
///
/// A tool whose catalog names no database keeps its data in memory (``MemoryToolStore``).
public struct ToolDatabase: Sendable {
    /// What opening a database needs besides its path or URL.
    public struct OpenOptions: Sendable {
        /// Whether a new, empty database gets the demo data.
        public var seedDemoData: Bool
        /// Whether the command writes (an import): a database that cannot be written is then
        /// an error at once rather than at the first write.
        public var requiresWriting: Bool
        /// How long to wait for a database that is locked or not answering.
        public var timeout: Duration
        /// Whether the file's folder may be created (the default location only: a path
        /// someone typed must exist).
        public var createsDirectory: Bool
        /// Called when the database is locked by another process and opening waits, so the
        /// tool can say so.
        public var onLockWait: @Sendable () -> Void
        /// The tables the catalog's parts keep in the database
        /// (`ModuleCatalog.addingTables(_:)`), of every kind: open the store with
        /// ``schemas(of:)``.
        public var partSchemas: [any PartSchema]

        public init(
            seedDemoData: Bool = true, requiresWriting: Bool = false, timeout: Duration = .seconds(30), createsDirectory: Bool = false,
            onLockWait: @escaping @Sendable () -> Void = {}, partSchemas: [any PartSchema] = []
        ) {
            self.seedDemoData = seedDemoData
            self.requiresWriting = requiresWriting
            self.timeout = timeout
            self.createsDirectory = createsDirectory
            self.onLockWait = onLockWait
            self.partSchemas = partSchemas
        }

        /// The parts' schemas for a store of one kind, in the catalog's order: what a kind's
        /// `open` passes to its store with the app's own schema.
        ///
        /// ```swift
        /// static let boardFiles = ToolDatabase.files(named: "board.sqlite") { path, options in
        ///     try BoardToolStore(board: SQLiteBoardStore(path: path, parts: options.schemas(of: SiteSchema.self)))
        /// }
        /// ```
        ///
        /// - Throws: `DataError` of kind `storage` naming the part when a part keeps tables but
        ///   declares none of this kind (it runs on another kind of database only), or when two
        ///   parts declare the tables of one app.
        public func schemas<Schema: PartSchema>(of kind: Schema.Type) throws(DataError) -> [Schema] {
            try PartKinds.pick(
                Schema.self, from: partSchemas, app: \.app,
                twice: { "Two parts of this tool declare the tables of the app '\($0)'; give each part's \(Schema.self) a name of its own." },
                lacking: { app, other in
                    "The part '\(app)' keeps its tables in \(other) only, not in a \(Schema.self): it cannot run on this kind of database. Add a \(Schema.self) to its addingTables(_:), or use a database of the kind it supports."
                })
        }
    }

    /// The URL schemes it opens, such as `postgres` and `postgresql`; empty for files.
    public let schemes: Set<String>
    /// For files: the file's name in the tool's data folder when `--database` is not given.
    public let defaultFileName: String?
    let open: @Sendable (String, OpenOptions) async throws -> any ToolStore

    /// A kind of database opened by `open` from a URL of one of `schemes`.
    ///
    /// `open` throws an error whose message says what went wrong and what to do (a
    /// `DataError`); the tool prints it and exits with status 2.
    public init(schemes: Set<String>, open: @escaping @Sendable (_ url: String, _ options: OpenOptions) async throws -> any ToolStore) {
        self.schemes = schemes
        self.defaultFileName = nil
        self.open = open
    }

    private init(defaultFileName: String, open: @escaping @Sendable (String, OpenOptions) async throws -> any ToolStore) {
        self.schemes = []
        self.defaultFileName = defaultFileName
        self.open = open
    }

    /// Database files (an embedded store such as SQLite), opened by `open` from a path;
    /// without `--database` the file is `name` in `$XDG_DATA_HOME/scenery/` (else
    /// `~/.local/share/scenery/`).
    public static func files(
        named name: String, open: @escaping @Sendable (_ path: String, _ options: OpenOptions) async throws -> any ToolStore
    ) -> ToolDatabase {
        ToolDatabase(defaultFileName: name, open: open)
    }

    /// Opens a database of this kind as the tool with `catalog` would (`--database
    /// location`): with the tables of the catalog's parts, created and seeded with the demo
    /// data when new. For tests that serve the catalog (``ModuleCatalog``'s `server(on:)` in
    /// `SceneryServeTool`).
    ///
    /// ```swift
    /// let store = try await ToolDatabase.profileFiles.open(path, for: .profile + .guestbook)
    /// ```
    ///
    /// - Throws: What opening throws: a `DataError` that says what went wrong and what to do.
    public func open(_ location: String, for catalog: ModuleCatalog, seedDemoData: Bool = true) async throws -> any ToolStore {
        try await open(location, OpenOptions(seedDemoData: seedDemoData, partSchemas: catalog.partSchemas))
    }

    /// Whether it opens files rather than URLs.
    var opensFiles: Bool { defaultFileName != nil }

    /// The databases the running tool knows: its catalog's, then the ones `main` added.
    @TaskLocal static var added: [ToolDatabase] = []

    /// The URL schemes of databases a tool may add; a tool without one hands commands on
    /// such a database to `TOOL-serve`.
    static let serverSchemes: Set<String> = ["postgres", "postgresql"]

    /// The scheme of `location` when it is a URL (`postgres://…`), else `nil` (a file path).
    static func scheme(of location: String) -> String? {
        guard let range = location.range(of: "://") else { return nil }
        let scheme = location[..<range.lowerBound]
        guard !scheme.isEmpty, scheme.allSatisfy({ $0.isLetter || $0.isNumber || "+-.".contains($0) }) else { return nil }
        return scheme.lowercased()
    }
}
