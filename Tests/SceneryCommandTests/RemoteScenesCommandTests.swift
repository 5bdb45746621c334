import Foundation
import Testing

/// `--scenes http://…/scenes --cache DIR`: the command as an app that takes its scenes
/// from a server, online and then offline.
@Suite struct RemoteScenesCommandTests {
    let cli: CommandRunner

    init() throws { cli = try CommandRunner() }

    /// `scenery serve` on a free loopback port, publishing the bundled user-profile with two
    /// blogs a page. A process of its own, so that it answers however busy the tests are.
    func startServer() async throws -> (url: String, server: Server) {
        let bundled = try String(contentsOf: CommandRunner.packageRoot.appending(path: "Scenes/user-profile.json"), encoding: .utf8)
        let scenes = cli.directory.appending(path: "served-scenes")
        try FileManager.default.createDirectory(at: scenes, withIntermediateDirectories: true)
        try bundled.replacingOccurrences(of: #""pageSize": 10"#, with: #""pageSize": 2"#)
            .write(to: scenes.appending(path: "user-profile.json"), atomically: true, encoding: .utf8)
        let server = try await Server(cli, ["serve", "--port", "0", "--scenes", scenes.path])
        return ("\(server.address)/scenes", server)
    }

    @Test func scenesFromAServerAreUsedThenServedFromTheCacheOffline() async throws {
        defer { cli.cleanUp() }
        let (url, server) = try await startServer()
        let cache = cli.directory.appending(path: "cache").path
        let arguments = ["run", "user-profile", "--viewer", "2", "--arg", "user=1", "--scenes", url, "--cache", cache]
        let online = try await cli.run(arguments)
        await server.stopped()
        #expect(online.status == 0, "\(online.error)")
        #expect(online.error.isEmpty, "\(online.error)")
        #expect(online.output.components(separatedBy: "By Alice Liddell").count - 1 == 2, "two blogs a page, as the server's version says")
        #expect(FileManager.default.fileExists(atPath: "\(cache)/user-profile.scene.json"))

        let offline = try await cli.run(arguments)
        #expect(offline.status == 0)
        #expect(offline.error.contains("could not be reached"), "\(offline.error)")
        #expect(offline.output.components(separatedBy: "By Alice Liddell").count - 1 == 2, "the cached version")
    }

    @Test func cacheWithoutAServerIsAUsageError() async throws {
        defer { cli.cleanUp() }
        let result = try await cli.run(["run", "user-profile", "--arg", "user=1", "--cache", cli.directory.path])
        #expect(result.status == 64)
        #expect(result.error.contains("--cache keeps scenes fetched from a server"))
    }

    /// A scene that needs a newer module than the tool has is valid, with a warning saying
    /// what apps like the tool will do with it.
    @Test func validateWarnsAboutModulesNewerThanTheToolHas() async throws {
        defer { cli.cleanUp() }
        let bundled = try String(contentsOf: CommandRunner.packageRoot.appending(path: "Scenes/user-profile.json"), encoding: .utf8)
        let file = cli.directory.appending(path: "user-profile.json")
        try bundled.replacingOccurrences(of: #""title": "Profile","#, with: "\"title\": \"Profile\",\n  \"requires\": { \"BlogModule\": 2 },")
            .write(to: file, atomically: true, encoding: .utf8)
        let result = try await cli.run(["validate", file.path])
        #expect(result.status == 0)
        #expect(
            result.output.hasPrefix(
                "\(file.path):4:31: warning: The scene needs BlogModule version 2, and this tool has version 1: an app with these modules keeps its previous version of the scene (\"fallback\": \"previous\")."
            ), "\(result.output)")
    }
}
