import ProfileDemo
import ProfileDemoScenes
import ProfileDemoStore
import Scenery
import SceneryFaults
import SceneryTool

extension ModuleCatalog {
    /// Scenery's profile demo: its modules (`UserInfoModule`, `BlogModule`, `BlogPostModule`,
    /// `DraftModule`, `UserListModule`) over a profile database (SQLite files; PostgreSQL with
    /// `ProfileDemoToolPostgres`), the bundled scenes, and `data generate`.
    ///
    /// ```swift
    /// import ProfileDemoTool
    /// import SceneryTool
    ///
    /// await SceneryTool.main(catalog: .profile)
    /// ```
    public static let profile = ModuleCatalog(
        modules: ProfileModules.descriptors, sceneFiles: (BundledScenes.files, BundledScenes.displayRoot), services: ServiceName.profileServices,
        databases: [.profileFiles], dataCommands: [ToolCommand(GenerateCommand.self)]
    ) { registry, services in
        registry.registerProfileModules(try services.profileServices())
    }
    .servingPictures(from: DemoData.pictures)
}
