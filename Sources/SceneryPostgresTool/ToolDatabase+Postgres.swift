import ProfileDomain
import ProfileStorePostgres
import ScenerySiteStorePostgres
import SceneryTool

extension ToolDatabase {
    /// PostgreSQL databases, from `--database postgres://USER[:PASSWORD]@HOST[:PORT]/DB`
    /// (or `postgresql://`): the store for several servers on one database. The schema is
    /// made (and the demo data seeded, unless the command imports) on first use.
    ///
    /// ```swift
    /// await SceneryTool.main(catalog: .profile, adding: [.serve], databases: [.postgres])
    /// ```
    public static var postgres: ToolDatabase {
        ToolDatabase(schemes: ["postgres", "postgresql"]) { url, options in
            try await PostgresProfileStore.connect(to: PostgresURL(url), seedDemoData: options.seedDemoData, timeout: options.timeout)
        }
    }
}
