import ProfileDemoStorePostgres
import ProfileDemoTool
import ScenerySiteStorePostgres
import SceneryTool

extension ToolDatabase {
    /// The profile demo on PostgreSQL, from `--database postgres://USER[:PASSWORD]@HOST[:PORT]/DB`
    /// (or `postgresql://`): several servers on one database. The schema is made (and the demo
    /// data seeded, unless the command imports) on first use, with the tables of the tool's
    /// other parts (`ModuleCatalog.addingTables(_:)`).
    ///
    /// ```swift
    /// await SceneryTool.main(catalog: .profile, adding: [.serve], databases: [.profilePostgres])
    /// ```
    public static var profilePostgres: ToolDatabase {
        ToolDatabase(schemes: ["postgres", "postgresql"]) { url, options in
            ProfileToolStore(
                try await PostgresProfileStore.connect(
                    to: PostgresURL(url), seedDemoData: options.seedDemoData, parts: options.schemas(of: PostgresSiteSchema.self),
                    timeout: options.timeout))
        }
    }
}
