import ProfileStore
import SceneryTool

extension ToolDatabase {
    /// The profile demo's SQLite files (`demo.sqlite` by default), created and seeded with the
    /// demo data on first use.
    public static let profileFiles = ToolDatabase.files(named: "demo.sqlite") { path, options in
        ProfileToolStore(
            try SQLiteProfileStore(
                path: path, seedDemoData: options.seedDemoData, createsDirectory: options.createsDirectory, requiresWriting: options.requiresWriting,
                lockTimeout: options.timeout, whileLocked: options.onLockWait))
    }
}
