import Foundation
import Testing

@testable import Scenery

@Suite struct ViewNodeTests {
    let row = ViewNode.stack(
        "row.1", axis: .horizontal,
        [.text("row.1.title", "Hi"), .button("row.1.like", title: "Like", sends: EventDescriptor("blog.like", payload: ["blog": 1]))])

    @Test func theSameRowRendersInAListAGridOrAlone() {
        let inList = ViewNode.list("l", sections: [.init(id: "s", rows: [row])])
        let inGrid = ViewNode.list("g", layout: .grid(columns: 2), sections: [.init(id: "s", rows: [row])])
        for container in [inList, inGrid, row] {
            #expect(container.node(withID: "row.1") == row)
            #expect(container.actions.map(\.id) == ["row.1.like"])
        }
    }

    /// The scene replaces one re-rendered row in its copy of the host's tree: the row array
    /// of a 1,000-row list must change in place, not be copied (a copy costs every row).
    @Test func replacingOneRowKeepsTheRowArrayInPlace() throws {
        func makeFrame() -> ViewNode {  // so that nothing else holds the row array
            let rows = (0..<1000).map { ViewNode.text(NodeID("row.\($0)"), "Row \($0)") }
            let content = ViewNode.list("list", sections: [.init(id: "all", rows: rows)])
            return ViewNode(id: "m", kind: .module(.init(module: "m", type: "Long", status: .ready, content: content)))
        }
        var frame = makeFrame()
        func rowStorage(_ node: ViewNode) -> UnsafeRawPointer? {
            guard case .module(let module) = node.kind, case .list(_, let sections) = module.content.kind else { return nil }
            return sections[0].rows.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
        }
        let before = try #require(rowStorage(frame))
        let path = try #require(RowIndex(frame).path(of: "row.500"))
        let replaced = frame.replace(at: path[...], with: .text("row.500", "Changed"))
        #expect(replaced)
        #expect(rowStorage(frame) == before)
        #expect(frame.node(withID: "row.500") == .text("row.500", "Changed"))
        #expect(frame.node(withID: "row.499") == .text("row.499", "Row 499"))
        // A path that is not in the tree changes nothing.
        let unchanged = frame
        let replacedMissing = frame.replace(at: [0, 0, 5000], with: .text("x", "x"))
        #expect(!replacedMissing)
        #expect(frame == unchanged)
    }

    @Test func theRowIndexFindsRowsOfNestedListsAndAWalkFindsEveryOtherNode() throws {
        let inner = ViewNode.list("inner", sections: [.init(id: "a", rows: [.text("inner.0", "A"), .text("inner.1", "B")])])
        let outer = ViewNode.list(
            "outer", sections: [.init(id: "s", rows: [row]), .init(id: "t", rows: [.stack("holder", [.text("caption", "C"), inner])])])
        let frame = ViewNode(id: "m", kind: .module(.init(module: "m", type: "Nested", status: .ready, content: .stack("c", [.text("head", "H"), outer]))))
        let index = RowIndex(frame)
        for id: NodeID in ["row.1", "holder", "inner.0", "inner.1"] {
            let path = try #require(index.path(of: id), "\(id) is a row")
            #expect(frame.node(at: path[...])?.id == id)
            #expect(frame.path(to: id) == path, "a walk finds the same place")
        }
        for id: NodeID in ["head", "caption", "row.1.like", "c"] {
            #expect(index.path(of: id) == nil, "\(id) is not a row: not indexed")
            let path = try #require(frame.path(to: id), "\(id) is found by a walk")
            #expect(frame.node(at: path[...])?.id == id)
        }
        #expect(frame.path(to: "nowhere") == nil)
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
                    kind: .tabs(
                        .init(tabs: [.init(id: "a", title: "A", event: EventDescriptor(SceneEvents.selectTab))], selection: "a", content: .stack("c", [])))),
            ])
        #expect(tree.actions.map(\.id) == ["row.1.like", "err", "tabs#a"])
        #expect(tree.action(withID: "row.1.like")?.event == Event("blog.like", from: "row.1.like", payload: ["blog": 1]))
        #expect(tree.action(withID: "err")?.title == "Retry")
    }

    @Test func selectableNodesSendTheirItem() throws {
        let avatar = ViewNode.image("avatar", .url("https://example.com/a.png"), alt: "Alice").selectable(
            sending: EventDescriptor("user.open", payload: ["user": "1"]))
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
        changed.kind = .stack(
            axis: .horizontal,
            children: [.text("row.1.title", "Hi"), .button("row.1.like", title: "Liked", sends: EventDescriptor("blog.like", payload: ["blog": 1]))])
        #expect(changed.id == row.id)
        #expect(changed != row)
    }
}
