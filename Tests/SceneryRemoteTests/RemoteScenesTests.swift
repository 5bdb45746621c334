import Foundation
import HTTPTypes
import Hummingbird
import NIOCore
import Scenery
import SceneryRemote
import SceneryServer
import SceneryTesting
import SceneryTool
import SceneryURLSession
import Testing

/// An app's point of view: it ships "home" (and "home-plus", which extends it), and takes
/// newer versions from a scenery server on loopback.
@Suite struct RemoteScenesTests {
    static let bundled = #"{ "modules": [ { "id": "hello", "type": "TextModule", "params": { "title": "Bundled hello" } } ] }"#

    /// The app's registry: its module types and the scenes it ships with.
    static func appRegistry() -> SceneRegistry {
        var registry = SceneRegistry()
        registry.addScenes(sources: [
            ("home", bundled, "Scenes/home.json"),
            (
                "home-plus", #"{ "extends": "home", "replace": [ { "id": "hello", "type": "TextModule", "params": { "title": "Plus" } } ] }"#,
                "Scenes/home-plus.json"
            ),
        ])
        return registry
    }

    /// The server's scenes: "home" with the given text.
    static func serverRegistry(home: String) -> SceneRegistry {
        var registry = SceneRegistry()
        registry.addScenes(sources: [("home", home, "Scenes/home.json")])
        return registry
    }

    /// Limits for a server that answers, however slowly: under the thread sanitizer, with
    /// every suite running at once, the in-process server once took over ten seconds (the
    /// default limit) to answer. These tests are not about timeouts (`badServersChangeNothing` is).
    static let patient = RemoteScenes.Limits(timeout: .seconds(60))

    static func temporaryCache() -> SceneCache {
        SceneCache(directory: FileManager.default.temporaryDirectory.appending(path: "scenery-cache-\(UUID().uuidString)"))
    }

    static func texts(_ registry: SceneRegistry, _ scene: String = "home") async throws -> [String] {
        let instance = try await registry.assemble(scene, for: SceneContext(viewer: nil), host: RecordingHost())
        return await instance.render().visibleTexts
    }

    static func home(_ title: String) -> String {
        #"{ "modules": [ { "id": "hello", "type": "TextModule", "params": { "title": "\#(title)" } } ] }"#
    }

    /// A scenery server (the real one) publishing "home".
    static func sceneryServer(home: String) async throws -> (SceneryServer, LiveHTTPServer) {
        let server = SceneryServer(registry: serverRegistry(home: home), users: [], configuration: .init(host: "127.0.0.1", port: 0))
        let live = try await LiveHTTPServer.start { listening in
            server.application { address in listening(Int(address.split(separator: ":").last ?? "") ?? 0) }
        }
        return (server, live)
    }

    @Test func anUpdateIsPickedUpAfterARefreshAndServedFromTheCacheWhenTheServerIsDown() async throws {
        let (server, live) = try await Self.sceneryServer(home: Self.home("Version 1"))
        let cache = Self.temporaryCache()
        let scenes = RemoteScenes(
            server: live.base.appending(path: "scenes/"), registry: Self.appRegistry(), transport: URLSessionSceneTransport(), cache: cache,
            limits: Self.patient)
        #expect(try await Self.texts(await scenes.registry).contains("Bundled hello"))

        #expect(await scenes.refresh().isEmpty)
        #expect(try await Self.texts(await scenes.registry).contains("Version 1"))
        #expect(try await Self.texts(await scenes.registry, "home-plus").contains("Plus"), "the child scene runs over the new parent")

        // The server publishes a new version; a refresh picks it up.
        await server.reload(Self.serverRegistry(home: Self.home("Version 2")), changed: ["home"], errors: nil)
        #expect(await scenes.refresh().isEmpty)
        #expect(try await Self.texts(await scenes.registry).contains("Version 2"))
        #expect(cache.entry(for: "home")?.source == Self.home("Version 2"))

        // Server down: a new app start has the cached version, and the refresh says why it failed.
        await live.stop()
        let offline = RemoteScenes(
            server: live.base.appending(path: "scenes/"), registry: Self.appRegistry(), transport: NIOSceneTransport(), cache: cache,
            limits: .init(timeout: .seconds(2)))
        #expect(await offline.loadCache().isEmpty)
        #expect(try await Self.texts(await offline.registry).contains("Version 2"))
        let failures = await offline.refresh()
        #expect(failures.count == 1)
        #expect(failures.first?.message.contains("could not be reached") == true, "\(failures)")
        #expect(try await Self.texts(await offline.registry).contains("Version 2"))
    }

    @Test func aBrokenUpdateLeavesTheLastGoodSceneAndADiagnosticWithItsPlace() async throws {
        let (server, live) = try await Self.sceneryServer(home: Self.home("Good"))
        defer { Task { await live.stop() } }
        let cache = Self.temporaryCache()
        let scenes = RemoteScenes(
            server: live.base.appending(path: "scenes/"), registry: Self.appRegistry(), transport: URLSessionSceneTransport(), cache: cache,
            limits: Self.patient)
        let events = await scenes.events()
        await scenes.refresh()
        await server.reload(
            Self.serverRegistry(home: "{\n  \"modules\": [ { \"id\": \"hello\", \"type\": \"TextModule\", \"params\": { \"titel\": \"Typo\" } } ]\n}"),
            changed: ["home"], errors: nil)
        let problems = await scenes.refresh()
        #expect(problems.first?.description.hasPrefix("\(live.base.absoluteString)scenes/home.json:2:") == true, "\(problems)")
        #expect(try await Self.texts(await scenes.registry).contains("Good"))
        #expect(cache.entry(for: "home")?.source == Self.home("Good"), "the cache keeps the last good version")
        // The app saw both: the good version activated, the broken one rejected.
        var seen: [String] = []
        for await event in events {
            switch event {
            case .activated(let offer): seen.append("activated \(offer.document.id)")
            case .rejected(let offer): seen.append("rejected \(offer.document.id)")
            case .unavailable: seen.append("unavailable")
            case .withdrawn(let id): seen.append("withdrawn \(id)")
            }
            if seen.count == 2 { break }
        }
        #expect(seen == ["activated home", "rejected home"])
    }

    @Test func anIncompatibleSceneFallsBackAsItSays() async throws {
        let needsMap =
            #"{ "requires": { "MapModule": 1 }, "fallback": "FALLBACK", "modules": [ { "id": "hello", "type": "TextModule", "params": { "title": "With a map" } }, { "id": "map", "type": "MapModule" } ] }"#
        // "previous": the bundled scene stays.
        let (_, live) = try await Self.sceneryServer(home: needsMap.replacingOccurrences(of: "FALLBACK", with: "previous"))
        let scenes = RemoteScenes(
            server: live.base.appending(path: "scenes/"), registry: Self.appRegistry(), transport: URLSessionSceneTransport(), cache: Self.temporaryCache(),
            limits: Self.patient)
        let problems = await scenes.refresh()
        #expect(problems.first?.message.contains("needs the module type MapModule") == true, "\(problems)")
        #expect(try await Self.texts(await scenes.registry).contains("Bundled hello"))
        await live.stop()
        // "drop": the scene runs without the map.
        let (_, dropping) = try await Self.sceneryServer(home: needsMap.replacingOccurrences(of: "FALLBACK", with: "drop"))
        let degraded = RemoteScenes(
            server: dropping.base.appending(path: "scenes/"), registry: Self.appRegistry(), transport: NIOSceneTransport(), cache: Self.temporaryCache(),
            limits: Self.patient)
        let warnings = await degraded.refresh()
        #expect(warnings.map(\.severity) == [.warning])
        #expect(try await Self.texts(await degraded.registry).contains("With a map"))
        await dropping.stop()
    }

    @Test func theServerAnswersConditionalRequestsWithNotModified() async throws {
        let (_, live) = try await Self.sceneryServer(home: Self.home("Tagged"))
        defer { Task { await live.stop() } }
        let url = live.base.appending(path: "scenes/home.json")
        let http = NIOSceneTransport()
        let first = try await http.get(url, headers: [:], limits: Self.patient)
        let tag = try #require(first.headers["etag"])
        let second = try await http.get(url, headers: ["If-None-Match": tag], limits: Self.patient)
        #expect(second.status == 304)
        let index = try await http.get(live.base.appending(path: "scenes/index.json"), headers: [:], limits: Self.patient).body
        let published = try SceneIndex(from: index, url: live.base.appending(path: "scenes/index.json"))
        #expect(published.scenes.contains(SceneIndex.Entry(id: "home", etag: tag)), "\(published)")
    }

    /// Each way a server can misbehave gives a diagnostic and leaves the last good scene,
    /// through every transport (the app's URLSession, NIO, and the tool's socket).
    @Test(
        arguments: [
            ("huge", "sent more than 65536 bytes"),
            ("slow", "did not answer in time"),
            ("html", "content type 'text/html"),
            ("latin1", "not valid UTF-8"),
            ("elsewhere", "redirected to another host"),
            ("broken", "answered 500"),
            ("traversal", "not a valid scene id"),
        ], ["URLSession", "NIO", "socket"])
    func badServersChangeNothing(case: (kind: String, expected: String), transportName: String) async throws {
        let (kind, expected) = `case`
        let transport: any SceneTransport =
            switch transportName {
            case "NIO": NIOSceneTransport()
            case "socket": SocketSceneTransport()
            default: URLSessionSceneTransport()
            }
        let router = Router()
        let json: HTTPFields = [.contentType: "application/json"]
        @Sendable func index(_ id: String = "home") -> Response {
            Response(status: .ok, headers: json, body: .init(byteBuffer: ByteBuffer(string: #"{ "scenes": [ { "id": "\#(id)", "etag": "\"1\"" } ] }"#)))
        }
        router.get("/huge/index.json") { _, _ in index() }
        router.get("/huge/home.json") { _, _ in
            Response(status: .ok, headers: json, body: .init(byteBuffer: ByteBuffer(repeating: UInt8(ascii: " "), count: 200_000)))
        }
        router.get("/slow/index.json") { _, _ in
            try await Task.sleep(for: .seconds(5))
            return index()
        }
        router.get("/html/index.json") { _, _ in index() }
        router.get("/html/home.json") { _, _ in
            Response(status: .ok, headers: [.contentType: "text/html"], body: .init(byteBuffer: ByteBuffer(string: "<html></html>")))
        }
        router.get("/latin1/index.json") { _, _ in index() }
        router.get("/latin1/home.json") { _, _ in
            Response(status: .ok, headers: json, body: .init(byteBuffer: ByteBuffer(bytes: Array(#"{ "title": "caf"#.utf8) + [0xE9, 0x22, 0x7D])))
        }
        router.get("/elsewhere/index.json") { _, _ in Response(status: .found, headers: [.location: "http://203.0.113.9/scenes/index.json"]) }
        router.get("/broken/index.json") { _, _ in Response(status: .internalServerError) }
        router.get("/traversal/index.json") { _, _ in index("../../etc/passwd") }
        let live = try await LiveHTTPServer.start(router)
        defer { Task { await live.stop() } }
        let cache = Self.temporaryCache()
        let scenes = RemoteScenes(
            server: live.base.appending(path: "\(kind)/"), registry: Self.appRegistry(), transport: transport, cache: cache,
            limits: .init(maximumBytes: 65_536, timeout: kind == "slow" ? .milliseconds(500) : .seconds(20)))
        let started = ContinuousClock.now
        let problems = await scenes.refresh()
        if kind == "slow" { #expect(ContinuousClock.now - started >= .milliseconds(500), "the deadline, not an instant failure") }
        #expect(problems.count == 1)
        #expect(problems.first?.message.contains(expected) == true, "\(problems.map(\.description))")
        #expect(problems.first?.message.hasSuffix("the scenes stay as they were.") == true)
        #expect(try await Self.texts(await scenes.registry).contains("Bundled hello"))
        #expect(cache.entries().entries.isEmpty)
    }

    /// A scene the server stops publishing goes back to the bundled version, in the app and
    /// in its cache.
    @Test func aSceneTheServerNoLongerListsIsWithdrawn() async throws {
        let (server, live) = try await Self.sceneryServer(home: Self.home("Experiment"))
        defer { Task { await live.stop() } }
        let cache = Self.temporaryCache()
        let scenes = RemoteScenes(
            server: live.base.appending(path: "scenes/"), registry: Self.appRegistry(), transport: NIOSceneTransport(), cache: cache,
            limits: Self.patient)
        await scenes.refresh()
        #expect(try await Self.texts(await scenes.registry).contains("Experiment"))
        var other = SceneRegistry()
        other.addScenes(sources: [("other", Self.home("Other"), "Scenes/other.json")])
        await server.reload(other, changed: ["home", "other"], errors: nil)
        #expect(await scenes.refresh().isEmpty)
        #expect(try await Self.texts(await scenes.registry).contains("Bundled hello"))
        #expect(await scenes.catalog.origins["home"] == "bundled")
        #expect(cache.entry(for: "home") == nil)
        #expect(try await Self.texts(await scenes.registry, "other").contains("Other"), "a scene the app does not ship arrives too")
    }

    @Test func refreshIfDueWaitsForTheInterval() async throws {
        let (_, live) = try await Self.sceneryServer(home: Self.home("Once"))
        defer { Task { await live.stop() } }
        let scenes = RemoteScenes(
            server: live.base.appending(path: "scenes/"), registry: Self.appRegistry(), transport: NIOSceneTransport(), limits: Self.patient,
            refreshInterval: .seconds(3600))
        #expect(await scenes.refreshIfDue()?.isEmpty == true, "the first refresh runs and succeeds")
        #expect(await scenes.refreshIfDue() == nil)
        #expect(try await Self.texts(await scenes.registry).contains("Once"))
    }

    @Test func aCacheFileThatIsNotACacheEntryIsIgnored() async throws {
        let cache = Self.temporaryCache()
        try FileManager.default.createDirectory(at: cache.directory, withIntermediateDirectories: true)
        try Data("half a fi".utf8).write(to: cache.directory.appending(path: "home.scene.json"))
        let scenes = RemoteScenes(server: URL(string: "http://127.0.0.1:9/")!, registry: Self.appRegistry(), transport: NIOSceneTransport(), cache: cache)
        let problems = await scenes.loadCache()
        #expect(problems.first?.message.contains("cannot be read; it is ignored") == true)
        #expect(try await Self.texts(await scenes.registry).contains("Bundled hello"))
    }
}
