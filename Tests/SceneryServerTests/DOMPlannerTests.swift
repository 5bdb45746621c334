import Scenery
import SceneryTesting
import Testing

@testable import SceneryServer

@Suite struct DOMPlannerTests {
    static func list(_ sections: [(String, [String])]) -> ViewNode {
        .list("list", sections: sections.map { id, rows in .init(id: NodeID(id), header: id, rows: rows.map { .text(NodeID($0), $0) }) })
    }

    /// The operations that take a page from `old` to `new`, checked: applied as the page
    /// script applies them, they leave the page's elements as `new` has them.
    func plan(from old: ViewNode, to new: ViewNode, _ comment: Comment? = nil) throws -> [DOMPlanner.Operation] {
        let tree = PatchableTree(old)
        let operations = try DOMPlanner(renderer: HTMLRenderer()).operations(for: ViewTreeDiff(from: old, to: new).patches, in: tree)
        #expect(tree.root == new, "the page's copy follows the scene")
        var page = PageModel(old)
        page.apply(operations, from: new)
        #expect(page.problems.isEmpty, "\(comment ?? "")\(page.problems): \(operations)")
        #expect(page == PageModel(new), "the page differs from its scene: \(comment ?? "") \(operations)")
        return operations
    }

    /// The two-tab draft race (issue 60): an editor whose draft left the list moves above it
    /// and shows an error in the same update. It was removed and then "replaced": gone.
    @Test func anElementThatMovesAndChangesIsMovedThenReplaced() throws {
        func editor(error: String?) -> ViewNode {
            .form("editor", submit: .init(title: "Save", sends: "save"), error: error, [.textField("editor.title", TextField(name: "title", label: "Title"))])
        }
        let old = ViewNode.stack("owner", [.text("compose", "New"), .list("list", sections: [.init(id: "all", rows: [editor(error: nil), .text("b", "b")])])])
        let new = ViewNode.stack(
            "owner", [.text("compose", "New"), editor(error: "Changed in another tab."), .list("list", sections: [.init(id: "all", rows: [.text("b", "b")])])])
        let operations = try plan(from: old, to: new)
        #expect(!operations.contains(.remove("editor")), "\(operations)")
        #expect(Array(operations.prefix(2)) == [.detach("editor"), .attach("editor", parent: "owner", index: 1)], "\(operations)")
        guard case .replace("editor", let html)? = operations.last else {
            Issue.record("the editor is not replaced where it now is: \(operations)")
            return
        }
        #expect(html.contains("Changed in another tab."))
    }

    /// Random trees changed at random (moves between containers and lists, changes, inserts,
    /// deletes, several at once): every plan, applied as the page applies it, gives the new tree.
    @Test func randomChangesPlanOperationsThatGiveTheNewTree() throws {
        var random = SeededRandom(seed: 60)
        for round in 0..<300 {
            let old = RandomTree.make(using: &random)
            let new = RandomTree.change(old, using: &random)
            _ = try plan(from: old.node, to: new.node, "round \(round)")
        }
    }

    @Test(arguments: [
        // A like: the count and the button change (the fast path, no tree built).
        (
            ViewNode.stack("row", [.text("row.likes", "Likes: 1"), .button("row.like", title: "Like", sends: EventDescriptor("like"))]),
            ViewNode.stack("row", [.text("row.likes", "Likes: 2"), .button("row.like", title: "Unlike", sends: EventDescriptor("like"))])
        ),
        // A row added (the general path).
        (
            ViewNode.list("list", sections: [.init(id: "all", rows: [.text("a", "a")])]),
            ViewNode.list("list", sections: [.init(id: "all", rows: [.text("a", "a"), .text("b", "b")])])
        ),
    ])
    func anUpdatePlansTheSameOperationsAsThePagesCopyWould(old: ViewNode, new: ViewNode) throws {
        let planner = DOMPlanner(renderer: HTMLRenderer())
        let patches = ViewTreeDiff(from: old, to: new).patches
        let fromUpdate = try planner.operations(for: SceneUpdate(node: new, module: nil, patches: patches, sequence: 1, previous: old))
        #expect(fromUpdate == (try planner.operations(for: patches, in: PatchableTree(old))))
        #expect(!fromUpdate.isEmpty)
    }

    @Test func anUpdateWithoutItsPreviousSubtreeAsksForTheWholeScene() {
        let new = ViewNode.list("list", sections: [.init(id: "all", rows: [.text("a", "a"), .text("b", "b")])])
        let update = SceneUpdate(node: new, module: nil, patches: [.insert(.node(.text("b", "b")), parent: "all", index: 1)], sequence: 1)
        #expect(throws: DOMPlanner.Mismatch.self) { try DOMPlanner(renderer: HTMLRenderer()).operations(for: update) }
    }

    @Test func aRowMovingToAnotherSectionIsDetachedAndAttachedNotReplaced() throws {
        let operations = try plan(
            from: Self.list([("requests", ["carol"]), ("friends", ["bob"])]), to: Self.list([("requests", []), ("friends", ["carol", "bob"])]))
        #expect(operations == [.detach("carol"), .attach("carol", parent: "friends", index: 0)])
    }

    @Test func aChangedRowIsReplacedWithServerHTML() throws {
        let operations = try plan(
            from: Self.list([("all", ["a", "b"])]), to: .list("list", sections: [.init(id: "all", header: "all", rows: [.text("a", "A!"), .text("b", "b")])]))
        #expect(operations == [.replace("a", html: #"<p id="a">A!</p>"# + "\n")])
    }

    @Test func aWindowThatMovesRemovesAndInsertsRowsAndRenumbersTheSectionInPlace() throws {
        func window(_ first: Int) -> ViewNode {
            let section = ViewNode.Section.windowed(id: "all", header: "Blogs", total: 1000, window: RowWindow(start: first, count: 3)) {
                .text(NodeID("row.\($0)"), "Row \($0)")
            }
            return .list("list", sections: [section])
        }
        let operations = try plan(from: window(10), to: window(11))
        #expect(
            operations == [
                .remove("row.10"),
                .insert(parent: "all", index: 2, html: "<li aria-posinset=\"14\" aria-setsize=\"1000\"><p id=\"row.13\">Row 13</p>\n</li>\n"),
                .window("all", firstRow: 11, totalRows: 1000),
            ], "the section and the rows that stay are not sent again")
        #expect(
            try JSONValueEncoder().encode(DOMPlanner.Operation.window("all", firstRow: 11, totalRows: 1000)) == [
                "op": "window", "id": "all", "first": 11, "total": 1000,
            ])
    }

    @Test func aSectionWhoseHeadingChangesIsStillReplaced() throws {
        let old = ViewNode.list("list", sections: [.init(id: "all", header: "Blogs", rows: [.text("a", "a")])])
        var section = ViewNode.Section(id: "all", header: "Posts", rows: [.text("a", "a")])
        section.firstRowIndex = 0
        section.totalRowCount = 1
        let operations = try plan(from: old, to: .list("list", sections: [section]))
        guard case .replace("all", let html)? = operations.first, operations.count == 1 else {
            Issue.record("expected the section replaced whole: \(operations)")
            return
        }
        #expect(html.contains("<h2>Posts</h2>") && html.contains("data-total-rows=\"1\""))
    }

    @Test func aNewRowIsInsertedInItsListItem() throws {
        let operations = try plan(from: Self.list([("all", ["a"])]), to: Self.list([("all", ["a", "b"])]))
        #expect(operations == [.insert(parent: "all", index: 1, html: "<li><p id=\"b\">b</p>\n</li>\n")])
    }

    @Test func operationsInsideAReplacedElementAreLeftToTheReplacement() throws {
        // The section's header changes (so it is replaced) while a row moves into it.
        let old = Self.list([("one", ["a"]), ("two", ["b"])])
        let new = ViewNode.list(
            "list", sections: [.init(id: "one", header: "one", rows: []), .init(id: "two", header: "TWO", rows: [.text("a", "a"), .text("b", "b")])])
        let operations = try plan(from: old, to: new)
        #expect(operations.first == .remove("a"), "moved into a replaced section: removed; the replacement brings it")
        guard case .replace("two", let html)? = operations.last else {
            Issue.record("no replacement of the section: \(operations)")
            return
        }
        #expect(html.contains(#"<p id="a">a</p>"#) && html.contains("<h2>TWO</h2>"))
        #expect(operations.count == 2)
    }

    @Test func patchesForAnotherTreeAskForTheWholePage() {
        let tree = PatchableTree(Self.list([("all", ["a"])]))
        #expect(throws: DOMPlanner.Mismatch.self) { try DOMPlanner(renderer: HTMLRenderer()).operations(for: [.delete("nowhere")], in: tree) }
    }
}
