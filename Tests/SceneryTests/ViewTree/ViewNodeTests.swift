import Foundation
import Testing

@testable import Scenery

@Suite struct ViewNodeTests {
    let row = ViewNode.stack("row.1", axis: .horizontal, [.text("row.1.title", "Hi"), .button("row.1.like", title: "Like", sends: EventDescriptor("blog.like", payload: ["blog": 1]))])

    @Test func theSameRowRendersInAListAGridOrAlone() {
        let inList = ViewNode.list("l", sections: [.init(id: "s", rows: [row])])
        let inGrid = ViewNode.list("g", layout: .grid(columns: 2), sections: [.init(id: "s", rows: [row])])
        for container in [inList, inGrid, row] {
            #expect(container.node(withID: "row.1") == row)
            #expect(container.actions.map(\.id) == ["row.1.like"])
        }
    }

    @Test func qualifiesIDsByModule() {
        let qualified = ViewNode.list("l", sections: [.init(id: "s", rows: [row])]).qualified(by: "blogs")
        #expect(qualified.allNodes.map(\.id) == ["blogs/l", "blogs/row.1", "blogs/row.1.title", "blogs/row.1.like"])
        #expect(NodeID("blogs/row.1.like").moduleComponent == "blogs")
        #expect(NodeID("blogs/row.1.like").localComponent == "row.1.like")
    }

    @Test func listsActionsWithTheirEvents() {
        let tree = ViewNode.stack(
            "root",
            [
                row,
                .error("err", "Failed", retry: EventDescriptor(SceneEvents.retry, payload: ["module": "m"])),
                ViewNode(
                    id: "tabs",
                    kind: .tabs(.init(tabs: [.init(id: "a", title: "A", event: EventDescriptor(SceneEvents.selectTab))], selection: "a", content: .stack("c", [])))),
            ])
        #expect(tree.actions.map(\.id) == ["row.1.like", "err", "tabs#a"])
        #expect(tree.action(withID: "row.1.like")?.event == Event("blog.like", from: "row.1.like", payload: ["blog": 1]))
        #expect(tree.action(withID: "err")?.title == "Retry")
    }

    @Test func selectableNodesSendTheirItem() throws {
        let avatar = ViewNode.image("avatar", .url("https://example.com/a.png"), alt: "Alice").selectable(sending: EventDescriptor("user.open", payload: ["user": "1"]))
        let tree = ViewNode.stack("root", [avatar, row.selectable(sending: EventDescriptor("blog.open", payload: ["blog": 1]))])
        #expect(tree.actions.map(\.id) == ["avatar", "row.1", "row.1.like"])
        #expect(tree.action(withID: "avatar")?.title == "Alice")
        #expect(tree.action(withID: "row.1")?.event == Event("blog.open", from: "row.1", payload: ["blog": 1]))
        let decoded = try JSONDecoder().decode(ViewTreeDocument.self, from: Data(JSONRenderer().render(tree).utf8))
        #expect(decoded.root == tree)
        #expect(TextRenderer().render(avatar) == "[image: Alice] ›\n")
    }

    @Test func comparesContentNotJustIdentity() {
        var changed = row
        changed.kind = .stack(axis: .horizontal, children: [.text("row.1.title", "Hi"), .button("row.1.like", title: "Liked", sends: EventDescriptor("blog.like", payload: ["blog": 1]))])
        #expect(changed.id == row.id)
        #expect(changed != row)
    }
}
