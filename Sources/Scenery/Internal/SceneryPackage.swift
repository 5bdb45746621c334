/// Facts about the Scenery package itself.
package enum SceneryPackage {
    /// The names of the package's targets (not its tests): names another package's targets
    /// must not take, since SwiftPM refuses two targets of one name in a build. A test keeps
    /// it equal to `Package.swift`.
    package static let targetNames: Set<String> = [
        "CSQLite",
        "ColdStartBaseline",
        "ProfileDomain",
        "ProfileStore",
        "ProfileStorePostgres",
        "ProfileTool",
        "ProfileToolPostgres",
        "Scenery",
        "SceneryBench",
        "SceneryBlogs",
        "SceneryCommand",
        "SceneryDrafts",
        "SceneryExperiments",
        "SceneryFaults",
        "SceneryLive",
        "SceneryPageProtocol",
        "SceneryProfile",
        "SceneryRemote",
        "SceneryRenderCommand",
        "SceneryScenes",
        "SceneryServeCommand",
        "SceneryServeTool",
        "SceneryServer",
        "SceneryServerTesting",
        "ScenerySiteStore",
        "ScenerySiteStorePostgres",
        "SceneryTesting",
        "SceneryTool",
        "SceneryURLSession",
        "SceneryUserInfo",
        "SceneryUserList",
        "SceneryValidateCommand",
        "SceneryValidationPlugin",
        "SceneryValidator",
    ]
}
