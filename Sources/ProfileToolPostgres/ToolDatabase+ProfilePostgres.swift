import ProfileStorePostgres
import ProfileTool
import ScenerySiteStorePostgres
import SceneryTool

extension ToolDatabase {
    /// The profile demo on PostgreSQL, from `--database postgres://USER[:PASSWORD]@HOST[:PORT]/DB`
    /// (or `postgresql://`): several servers on one database. The schema is made (and the demo
    /// data seeded, unless the command imports) on first use.
    ///
    /// ```swift
    /// await SceneryTool.main(catalog: .profile, adding: [.serve], databases: [.profilePostgres])
    /// ```
    public static var profilePostgres: ToolDatabase {
        ToolDatabase(schemes: ["postgres", "postgresql"]) { url, options in
            ProfileToolStore(try await PostgresProfileStore.connect(to: PostgresURL(url), seedDemoData: options.seedDemoData, timeout: options.timeout))
        }
    }
}
