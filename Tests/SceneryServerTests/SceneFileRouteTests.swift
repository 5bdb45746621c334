import Foundation
import HTTPTypes
import Hummingbird
import Scenery
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// `GET /scenes/<id>.json` and `/scenes/index.json` publish only the scenes the server
/// runs: never a file a link planted in the folder points at, a FIFO, or JSON that is not a
/// scene.
@Suite(.timeLimit(.minutes(5))) struct SceneFileRouteTests {
    let root: URL
    let server: SceneryServer
    static let secret = "root:x:0:0:secret-of-the-machine"

    init() throws {
        root = FileManager.default.temporaryDirectory.appending(path: "scenery-served-\(UUID().uuidString)")
        let folder = root.appending(path: "Scenes")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        try Data(#"{ "modules": [ { "id": "t", "type": "TextModule", "params": { "title": "Hello" } } ] }"#.utf8)
            .write(to: folder.appending(path: "good.json"))
        // Outside the folder: what a planted link points at.
        try Data(Self.secret.utf8).write(to: root.appending(path: "passwd"))
        try Data(#"{ "modules": [], "note": "\#(Self.secret)" }"#.utf8).write(to: root.appending(path: "elsewhere.json"))
        try FileManager.default.createSymbolicLink(atPath: folder.appending(path: "passwd.json").path, withDestinationPath: "../passwd")
        try FileManager.default.createSymbolicLink(
            atPath: folder.appending(path: "elsewhere.json").path, withDestinationPath: root.appending(path: "elsewhere.json").path)
        // A scene whose module has an error is still published (the app that takes it
        // checks its modules against its own).
        try Data(#"{ "modules": [ { "id": "t", "type": "TextModule", "params": { "titel": "Typo" } } ] }"#.utf8)
            .write(to: folder.appending(path: "typo.json"))
        // In the folder but no scene: any JSON, and a FIFO.
        try Data(#"{ "user": "root", "password": "\#(Self.secret)" }"#.utf8).write(to: folder.appending(path: "settings.json"))
        #expect(mkfifo(folder.appending(path: "pipe.json").path, 0o600) == 0)
        var registry = SceneRegistry()
        _ = try registry.loadScenes(in: folder)
        server = SceneryServer(
            registry: registry, users: [], configuration: SceneryServer.Configuration(host: "127.0.0.1", port: 0, cookieSecret: Array(repeating: 3, count: 32)))
    }

    @Test(arguments: ["passwd", "elsewhere", "settings", "pipe", "missing"])
    func aFileThatIsNoLoadedSceneIsNotServed(name: String) async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try await server.application().test(.router) { client in
            let response = try await client.execute(uri: "/scenes/\(name).json", method: .get)
            #expect(response.status == .notFound)
            #expect(!response.text.contains("secret-of-the-machine"))
            #expect(response.text.contains("No scene"), "\(response.text)")
        }
    }

    @Test func theIndexListsOnlyTheScenesTheServerRuns() async throws {
        defer { try? FileManager.default.removeItem(at: root) }
        try await server.application().test(.router) { client in
            let index = try await client.execute(uri: "/scenes/index.json", method: .get)
            #expect(index.status == .ok)
            let listed = try JSONSerialization.jsonObject(with: Data(index.text.utf8)) as? [String: [[String: String]]]
            let ids = listed?["scenes"]?.compactMap { $0["id"] }
            #expect(ids == ["good", "typo"])
            let good = try await client.execute(uri: "/scenes/good.json", method: .get)
            #expect(good.status == .ok && good.text.contains("Hello"))
        }
    }
}
