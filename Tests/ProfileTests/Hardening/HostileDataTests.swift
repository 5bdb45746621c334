import Foundation
import ProfileDemoDomain
import ProfileDemoStore
import Scenery
import SceneryTesting
import Testing

/// User text is untrusted: it is escaped in HTML and stripped of control sequences on terminals.
@Suite struct HostileDataTests {
    static let name = #"<script>alert("pwned")</script>"#
    static let summary = "Clear \u{1B}[2J\u{1B}]0;owned\u{07} screen \u{1B}[31mred\u{1B}[0m \u{202E}reversed"
    static let title = #"" onmouseover="steal()" x=""#

    static func store() throws -> SQLiteProfileStore {
        let store = try SQLiteProfileStore.inMemory(seedDemoData: false)
        try store.importData(
            ProfileDataSet(
                users: [User(id: "1", name: name, avatarURL: "javascript:alert(1)", summary: summary), User(id: "2", name: "Viewer")],
                blogs: [.init(id: 1, author: "1", title: title, body: "<img src=x onerror=alert(1)>", createdAt: Date(timeIntervalSince1970: 0))]))
        return store
    }

    func tree() async throws -> ViewNode {
        let registry = try Backend.registry(ProfileServices(try Self.store()))
        let scene = try await registry.assemble("user-profile", for: SceneContext(viewer: "2", arguments: ["user": "1"]), host: RecordingHost())
        return await scene.render()
    }

    @Test func htmlEscapesEverything() async throws {
        let page = HTMLRenderer().render(try await tree())
        #expect(!page.contains("<script>alert"))
        #expect(!page.contains("<img src=x"))
        #expect(!page.contains(#"" onmouseover="steal()""#))
        #expect(!page.contains("javascript:"))
        #expect(page.contains("&lt;script&gt;alert(&quot;pwned&quot;)&lt;/script&gt;"))
        #expect(!page.unicodeScalars.contains { $0.value == 0x1B || $0.value == 0x07 })
    }

    @Test func terminalOutputCarriesNoControlSequences() async throws {
        let text = TextRenderer().render(try await tree())
        #expect(!text.unicodeScalars.contains { ($0.value < 0x20 && $0 != "\n") || $0.value == 0x7F || (0x80...0x9F).contains($0.value) || $0.value == 0x202E })
        #expect(text.contains("Clear  screen red reversed"))
    }

    @Test func jsonKeepsTheDataButCannotBeBrokenOutOf() async throws {
        let json = JSONRenderer().render(try await tree())
        let document = try JSONDecoder().decode(ViewTreeDocument.self, from: Data(json.utf8))
        #expect(document.root.visibleTexts.contains(Self.name), "JSON carries data verbatim; clients escape for their medium")
    }
}
