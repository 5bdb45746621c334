import Foundation
import HTTPTypes
import Hummingbird
import Logging
import NIOCore
import ProfileDemo
import ProfileDemoDomain
import ProfileDemoStore
import Scenery

@testable import SceneryServer
@testable import SceneryServerTesting

/// A server on the demo data (in memory) with the bundled scenes, for one test.
struct ServerFixture {
    let store: SQLiteProfileStore
    let server: SceneryServer

    static let scenesDirectory = URL(filePath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appending(path: "Scenes")

    /// - Parameters:
    ///   - register: Adds modules and scenes of a test's own to the bundled ones.
    ///   - checksSharedPatches: Whether the server plans every patch a page reuses again
    ///     alone and notes any difference (`SharedPatches.reuseDifferences`).
    init(
        configure: (inout SceneryServer.Configuration) -> Void = { _ in }, register: (inout SceneRegistry) throws -> Void = { _ in },
        logger: Logger? = nil, checksSharedPatches: Bool = false
    ) throws {
        store = try SQLiteProfileStore.inMemory(seedDemoData: true)
        var registry = SceneRegistry()
        // Tests of what pages show, not of deadlines: under the whole suite's load on two
        // cores a first load has taken longer than the default 10 s.
        registry.defaultModuleTimeout = .seconds(120)
        registry.registerProfileModules(ProfileServices(store))
        _ = try registry.loadScenes(in: Self.scenesDirectory)
        try register(&registry)
        var configuration = SceneryServer.Configuration(host: "127.0.0.1", port: 0, cookieSecret: Array(repeating: 7, count: 32))
        configuration.enablesPreview = true
        // A test not about streaming reads whole pages: the first response waits for every
        // module (StreamedPageTests delays a module and streams it in).
        configuration.firstResponseWait = .seconds(60)
        configuration.givesStarvedRequestsTime()
        // The test client names the server `localhost`, and its WebSocket port besides (its
        // own "ws://localhost" origin does not count: SceneryServer.sameOrigin).
        configuration.allowedOrigins = ["http://localhost"]
        configure(&configuration)
        let users = try store.allUsers().map { SignInUser(id: $0.id.rawValue, name: $0.name) }
        server = SceneryServer(registry: registry, users: users, configuration: configuration, logger: logger, checksSharedPatches: checksSharedPatches)
    }

    /// A cookie header that signs in `user` (as the sign-in route would).
    func cookie(for user: String) -> String {
        "\(SceneryServer.cookieName)=\(server.cookies.value(for: user, expiry: Date().addingTimeInterval(3600)))"
    }

    /// Request headers: the page's own origin (as the test client names the server:
    /// `localhost`, with the port for a WebSocket), and a sign-in when given.
    static func headers(port: Int? = nil, cookie: String? = nil) -> HTTPFields {
        var fields = HTTPFields()
        fields[.origin] = "http://localhost"
        if let cookie { fields[.cookie] = cookie }
        return fields
    }
}

extension HTTPTestResponse {
    var text: String { String(buffer: body) }
}

extension String {
    /// The page session id in a scene page.
    var sessionID: String? {
        guard let range = range(of: #"data-session="([0-9a-f]+)""#, options: .regularExpression) else { return nil }
        return String(self[range].dropFirst(#"data-session=""#.count).dropLast())
    }
}

extension SceneryServer.Configuration {
    /// For a test not about slow clients: its requests get all the time a loaded machine
    /// needs (the 10-second defaults answered 408 to a test starved of CPU by the whole
    /// suite on two cores); the request limit tests set short ones. The time is the test
    /// kit's own: `SceneryServer.test(_:_:)` gives its requests the same.
    mutating func givesStarvedRequestsTime() {
        headerTimeout = SceneryServer.testRequestTimeout
        bodyTimeout = SceneryServer.testRequestTimeout
    }
}
