import Foundation
import HTTPTypes
import Hummingbird
import Scenery
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// The page inspector: on only when asked for, on this machine only, for the page's own
/// viewer only.
@Suite(.timeLimit(.minutes(5))) struct InspectorTests {
    let fixture: ServerFixture

    init() throws {
        fixture = try ServerFixture {
            $0.enablesInspector = true
            $0.trustedProxies = ["127.0.0.1", "::1"]
        }
    }

    func headers(as viewer: String?, from client: String = "127.0.0.1", on server: ServerFixture? = nil) -> HTTPFields {
        var fields: HTTPFields = [HTTPField.Name("X-Forwarded-For")!: client]
        if let viewer { fields[.cookie] = (server ?? fixture).cookie(for: viewer) }
        return fields
    }

    @Test func withoutTheFlagAPageCarriesNotAByteOfIt() async throws {
        let plain = try ServerFixture()
        try await plain.server.application().test(.live) { client in
            let page = try await client.execute(uri: "/scenes/user-profile?user=1", method: .get)
            #expect(page.status == .ok)
            #expect(!page.text.contains("inspector"), "no script tag, no button")
            #expect(try await client.execute(uri: InspectorScript.path, method: .get).status == .notFound)
            let session = try #require(page.text.sessionID)
            #expect(try await client.execute(uri: "/inspect/\(session)?node=blogs", method: .get).status == .notFound)
        }
    }

    @Test func thePagesOwnViewerLearnsTheModuleItsSceneLineAndVariant() async throws {
        try await fixture.server.application().test(.live) { client in
            let page = try await client.execute(uri: "/scenes/user-profile?user=1", method: .get, headers: headers(as: "2"))
            #expect(page.text.contains(#"<script src="/assets/inspector.js" defer></script>"#))
            let script = try await client.execute(uri: InspectorScript.path, method: .get)
            #expect(script.status == .ok)
            #expect(script.text == InspectorScript.source)
            let session = try #require(page.text.sessionID)

            let answer = try await client.execute(uri: "/inspect/\(session)?node=blogs/blog.26.like", method: .get, headers: headers(as: "2"))
            #expect(answer.status == .ok)
            let fields = try JSONDecoder().decode([String: JSONValue].self, from: Data(buffer: answer.body))
            #expect(fields["module"] == "blogs")
            #expect(fields["moduleType"] == "BlogModule")
            // Where the scene file places the blogs module.
            let file = URL(filePath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
                .appending(path: "Scenes/user-profile.json")
            let blogsLine =
                try #require(try String(contentsOf: file, encoding: .utf8).components(separatedBy: "\n").firstIndex { $0.contains(#""id": "blogs""#) }) + 1
            #expect(fields["placement"]?.stringValue?.hasSuffix("Scenes/user-profile.json:\(blogsLine):5") == true, "\(fields)")
            #expect(fields["line"] == .int(blogsLine))
            #expect(fields["viewer"] == "2")
            #expect(fields["variant"]?.stringValue != "owner")
            guard case .object(let arms)? = fields["arms"] else {
                Issue.record("no arms: \(fields)")
                return
            }
            #expect(arms["friends-layout"] == "carousel" || arms["friends-layout"] == "compact", "Bob's page is in the layout experiment")
            #expect(fields["events"] == [], "nothing tapped yet")
            #expect(fields["editorLink"] == nil, "no editor configured, no link")
        }
    }

    @Test func theEditorLinkOpensTheSceneFileAtTheModulesLine() async throws {
        let linked = try ServerFixture {
            $0.enablesInspector = true
            $0.editorLink = SceneryServer.Configuration.editorLink("vscode://file/{file}:{line}:{column}", sceneFolder: ServerFixture.scenesDirectory)
        }
        try await linked.server.application().test(.live) { client in
            let page = try await client.execute(uri: "/scenes/user-profile?user=1", method: .get, headers: headers(as: "2", on: linked))
            let session = try #require(page.text.sessionID)
            let answer = try await client.execute(uri: "/inspect/\(session)?node=blogs/blog.26.like", method: .get, headers: headers(as: "2", on: linked))
            let fields = try JSONDecoder().decode([String: JSONValue].self, from: Data(buffer: answer.body))
            let file = try #require(fields["file"]?.stringValue)
            let (line, column) = (try #require(fields["line"]?.intValue), try #require(fields["column"]?.intValue))
            let path = ServerFixture.scenesDirectory.appending(path: "user-profile.json").standardizedFileURL.path
            #expect(file == "Scenes/user-profile.json")
            #expect(fields["editorLink"] == .string("vscode://file/\(path):\(line):\(column)"), "\(fields)")
            // A file of another folder, or fetched from a server, gets no link.
            let link = try #require(linked.server.configuration.editorLink)
            #expect(link("Elsewhere/user-profile.json", SourcePosition(line: 1, column: 1)) == nil)
            #expect(link("http://example.com/Scenes/x.json", SourcePosition(line: 1, column: 1)) == nil)
        }
    }

    @Test func anyoneButThePagesViewerOnThisMachineLearnsNothing() async throws {
        try await fixture.server.application().test(.live) { client in
            let page = try await client.execute(uri: "/scenes/user-profile?user=1", method: .get, headers: headers(as: "1"))
            let session = try #require(page.text.sessionID)
            let uri = "/inspect/\(session)?node=drafts/compose"
            #expect(try await client.execute(uri: uri, method: .get, headers: headers(as: "1")).status == .ok, "Alice, on her own page")
            for (viewer, status) in [("2", HTTPResponse.Status.notFound), (nil, .notFound)] as [(String?, HTTPResponse.Status)] {
                let answer = try await client.execute(uri: uri, method: .get, headers: headers(as: viewer))
                #expect(answer.status == status, "\(viewer ?? "signed out")")
                #expect(!answer.text.contains("DraftModule") && !answer.text.contains("user-profile.json"))
            }
            let remote = try await client.execute(uri: uri, method: .get, headers: headers(as: "1", from: "203.0.113.9"))
            #expect(remote.status == .forbidden)
            #expect(!remote.text.contains("DraftModule"))
            let remotePage = try await client.execute(uri: "/scenes/user-profile?user=1", method: .get, headers: headers(as: "1", from: "203.0.113.9"))
            #expect(!remotePage.text.contains("inspector.js"), "a page served to another machine has no inspector")
            let noNode = try await client.execute(uri: "/inspect/\(session)", method: .get, headers: headers(as: "1"))
            #expect(noNode.status == .badRequest)
            #expect(noNode.text.contains("?node=ID"))
        }
    }

    @Test func theInspectorIsRefusedOnAnAddressOtherMachinesReach() {
        var configuration = SceneryServer.Configuration(host: "0.0.0.0", port: 0, cookieSecret: Array(repeating: 1, count: 32))
        configuration.enablesInspector = true
        #expect(throws: SceneryServer.ConfigurationError.self) { try configuration.validate() }
    }
}
