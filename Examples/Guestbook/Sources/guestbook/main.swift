import Guestbook
import ProfileDemoTool
import ProfileDemoToolPostgres
import Scenery
import SceneryServeTool
import ScenerySiteStore
import ScenerySiteStorePostgres
import SceneryTool

extension ModuleCatalog {
    /// The guestbook, on whichever database the tool opened for the profile.
    static let guestbook = ModuleCatalog(modules: [GuestbookModule.descriptor], scenes: GuestbookScenes.directory) { registry, services in
        let book: any GuestbookService =
            switch try services.siteStore() {
            case let site as SQLiteSiteStore: SQLiteGuestbook(site)
            case let site as PostgresSiteStore: PostgresGuestbook(site)
            case let other: throw SceneryError(.moduleCreationFailed, "The guestbook runs on SQLite or PostgreSQL, not on \(other.location).")
            }
        registry.register(GuestbookModule.self) { try GuestbookModule(parameters: $0, context: $1, book: book) }
    }
    .addingTables(SQLiteGuestbook.tables, PostgresGuestbook.tables)
    .addingData(SQLiteGuestbook.data, PostgresGuestbook.data)
}

await SceneryTool.main(catalog: .profile + .guestbook, adding: [.serve], databases: [.profilePostgres])
