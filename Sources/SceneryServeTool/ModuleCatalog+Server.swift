import Foundation
import Scenery
import SceneryExperiments
import SceneryServer
import SceneryTool

extension ModuleCatalog {
    /// A server of the catalog's modules, scenes and parts over `store`: the site `TOOL
    /// serve` serves (the store's people may sign in, its ledger applies each action once,
    /// its pages record experiments there), on a loopback address with a key of its own.
    /// A test drives it with `SceneryServerTesting`:
    ///
    /// ```swift
    /// let catalog = ModuleCatalog.profile + .guestbook
    /// let server = try await catalog.server(on: ToolDatabase.profileFiles.open(path, for: catalog))
    /// try await server.test(.inProcess) { client in
    ///     let bob = try await client.open("user-profile", arguments: ["user": "1"], as: "2")
    ///     // …
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - store: The app's database, opened with the catalog's parts
    ///     (`ToolDatabase.open(_:for:seedDemoData:)`).
    ///   - configuration: The server's settings; its action ledger is the store, and its
    ///     pictures the catalog's.
    /// - Throws: What a registration throws, or the store when it cannot list its people.
    public func server(on store: any ToolStore, configuration: SceneryServer.Configuration = .init(port: 0)) async throws -> SceneryServer {
        var registry = try registry(services: ToolServices(store: store))
        registry.impressionSink = DatabaseImpressionSink { records throws(DataError) in try await store.record(records) }
        var configuration = configuration
        configuration.actionLedger = store
        configuration.pictureFolders = pictureFolders
        configuration.personScene = configuration.personScene ?? registry.defaultPersonScene
        let users = try await store.signInAccounts().map(SignInUser.init)
        return SceneryServer(registry: registry, users: users, configuration: configuration)
    }
}

extension SignInUser {
    /// Someone of the tool's store, as the sign-in page lists them.
    init(_ account: ToolAccount) {
        self.init(id: account.id, name: account.name)
    }
}

extension SceneRegistry {
    /// The scene a person's name links to when no other is chosen: the profile's, when the
    /// site has it.
    var defaultPersonScene: String? { sceneIDs.contains("user-profile") ? "user-profile" : nil }
}
