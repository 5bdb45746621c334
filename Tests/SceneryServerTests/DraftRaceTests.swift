import Foundation
import ProfileDemoDomain
import Scenery
import SceneryPageProtocol
import SceneryServerTesting
import Testing

@testable import SceneryServer

/// One draft saved in two tabs at the same moment, round after round, over the page socket:
/// the losing tab's page says why its save was refused, in the same update as its scene
/// records it (the page never differs from a fresh render of its own scene).
@Suite(.timeLimit(.minutes(5))) struct DraftRaceTests {
    static let editor: NodeID = "drafts/draft.1.editor"
    static let refusal = "changed in another tab or window"

    /// Alice's profile on the Drafts tab with draft 1's editor open.
    static func openEditor(_ client: PageTestClient, format: TestPage.Format) async throws -> TestPage {
        let page = try await client.open("user-profile", arguments: ["user": "1"], as: "1", format: format)
        try await page.waitForAnswer(to: try await page.tap("sections#drafts"))
        try await page.waitForAnswer(to: try await page.tap("drafts/draft.1.edit"))
        return page
    }

    /// Whether a page shows the refusal: in its tree, or in the HTML it was sent.
    static func showsRefusal(_ state: TestPage.State) -> Bool {
        if state.html == nil { return "\(state.tree)".contains(refusal) }
        // The last HTML sent for the editor decides (a reset, or an operation).
        let sent =
            [state.html ?? ""]
            + state.messages.compactMap { message -> String? in
                switch message {
                case .reset(_, let html): html
                case .patch(_, let operations): operations.compactMap(\.html).filter { $0.contains("id=\"\(editor.rawValue)\"") }.last
                default: nil
                }
            }
        return sent.last { $0.contains("id=\"\(editor.rawValue)\"") }?.contains(refusal) == true
    }

    /// The page as a fresh render of its own scene shows it: the whole scene sent again.
    static func fresh(_ page: TestPage) async throws -> TestPage.State {
        let count = page.state.messages.count
        await page.send(.resync)
        return try await page.waitUntil("the whole scene again") { state in
            state.messages.dropFirst(count).contains { if case .reset = $0 { true } else if case .tree = $0 { true } else { false } }
        }
    }

    @Test(arguments: [TestPage.Format.viewTree, .html])
    func theLosingTabSaysWhyItsSaveWasRefused(format: TestPage.Format) async throws {
        for round in 0..<10 {
            let fixture = try ServerFixture()
            try await fixture.server.test(.inProcess) { client in
                let left = try await Self.openEditor(client, format: format)
                let right = try await Self.openEditor(client, format: format)
                async let leftKey = left.tap(Self.editor, values: ["title": "Left \(round)", "body": "left"])
                async let rightKey = right.tap(Self.editor, values: ["title": "Right \(round)", "body": "right"])
                let keys = try await (leftKey, rightKey)
                try await left.waitForAnswer(to: keys.0)
                try await right.waitForAnswer(to: keys.1)
                // One save won (the store says which); the other tab's answer says why it lost.
                let stored = try await fixture.store.drafts(of: "1", viewer: "1", page: PageRequest(limit: 100)).items.first { $0.id == 1 }
                let loser = stored?.title == "Left \(round)" ? right : left
                let told = (try? await loser.waitUntil("the refusal", timeout: .seconds(10), Self.showsRefusal)) != nil
                var refused = 0
                for (name, page) in [("left", left), ("right", right)] {
                    let shown = page.state
                    let fresh = try await Self.fresh(page)
                    if Self.showsRefusal(fresh) { refused += 1 }
                    #expect(Self.showsRefusal(shown) == Self.showsRefusal(fresh), "round \(round), \(format) \(name): the page differs from its scene")
                    if format == .viewTree { #expect(shown.tree == fresh.tree, "round \(round), \(name): the page's tree differs from its scene's") }
                }
                #expect(told, "round \(round), \(format): the losing page was not told why")
                #expect(refused == 1, "round \(round), \(format): one save wins, the other is refused (\(refused) refused)")
            }
        }
    }
}
