import ProfileDemoStore
import ScenerySiteStore
import SceneryTool

extension ToolDatabase {
    /// The profile demo's SQLite files (`demo.sqlite` by default), created and seeded with the
    /// demo data on first use, with the tables of the tool's other parts
    /// (`ModuleCatalog.addingTables(_:)`).
    public static let profileFiles = ToolDatabase.files(named: "demo.sqlite") { path, options in
        ProfileToolStore(
            try SQLiteProfileStore(
                path: path, seedDemoData: options.seedDemoData, parts: options.schemas(of: SiteSchema.self), createsDirectory: options.createsDirectory,
                requiresWriting: options.requiresWriting,
                lockTimeout: options.timeout, whileLocked: options.onLockWait))
    }
}
