import ProfileStore

/// A kind of database the tool opens from a URL given to `--database` (or
/// `$SCENERY_DATABASE`), beside SQLite files, which every tool opens.
///
/// PostgreSQL is one: `ToolDatabase.postgres` lives in the `SceneryPostgresTool` library, so
/// that a tool that only runs scenes on SQLite never compiles a PostgreSQL client. A tool
/// built without it hands a command on a `postgres://` database to `TOOL-serve` (as
/// `scenery` does to `scenery-serve`), which has it:
///
/// ```swift
/// import SceneryPostgresTool
/// import SceneryServeTool
/// import SceneryTool
///
/// await SceneryTool.main(catalog: .profile, adding: [.serve], databases: [.postgres])
/// ```
public struct ToolDatabase: Sendable {
    /// What opening a database needs besides its URL.
    public struct OpenOptions: Sendable {
        /// Whether a new, empty database gets the demo data.
        public var seedDemoData: Bool
        /// Whether the command writes (an import): a database that cannot be written is then
        /// an error at once rather than at the first write.
        public var requiresWriting: Bool
        /// How long to wait for a database that is locked or not answering.
        public var timeout: Duration

        public init(seedDemoData: Bool = true, requiresWriting: Bool = false, timeout: Duration = .seconds(30)) {
            self.seedDemoData = seedDemoData
            self.requiresWriting = requiresWriting
            self.timeout = timeout
        }
    }

    /// The URL schemes it opens, such as `postgres` and `postgresql`.
    public let schemes: Set<String>
    let open: @Sendable (String, OpenOptions) async throws -> any ProfileDatabase

    /// A kind of database opened by `open` from a URL of one of `schemes`.
    ///
    /// `open` throws a `ProfileError` whose message says what went wrong and what to do;
    /// the tool prints it and exits with status 2.
    public init(schemes: Set<String>, open: @escaping @Sendable (_ url: String, _ options: OpenOptions) async throws -> any ProfileDatabase) {
        self.schemes = schemes
        self.open = open
    }

    /// The databases the running tool added.
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
