import Foundation
import SceneryTesting
import Testing

@testable import Scenery

/// Random trees: a scene of module frames holding lists with sections of rows; some rows
/// hold a nested horizontal list (a carousel).
struct TreeGenerator {
    var random: SeededRandom
    var nextID = 0

    mutating func id(_ prefix: String) -> NodeID {
        nextID += 1
        return NodeID("\(prefix).\(nextID)")
    }

    mutating func row() -> ViewNode {
        let rowID = id("row")
        var children: [ViewNode] = [.text("\(rowID).title", "Row \(nextID)"), .button("\(rowID).like", title: "Like", sends: EventDescriptor("like"))]
        if Bool.random(using: &random), Int.random(in: 0..<4, using: &random) == 0 {
            let items = (0..<Int.random(in: 0...4, using: &random)).map { _ in ViewNode.text(id("card"), "Card") }
            children.append(.list("\(rowID).carousel", layout: .grid(columns: 4), sections: [.init(id: "\(rowID).cards", rows: items)]))
        }
        return .stack(rowID, axis: .horizontal, children)
    }

    mutating func tree() -> ViewNode {
        let sections = (0..<Int.random(in: 1...3, using: &random)).map { index in
            ViewNode.Section(id: "section.\(index)", header: "Section \(index)", rows: (0..<Int.random(in: 0...8, using: &random)).map { _ in row() })
        }
        return .stack(
            "scene",
            [
                ViewNode(id: "feed", kind: .module(.init(module: "feed", type: "Feed", status: .ready, content: .list("feed/list", sections: sections)))),
                .text("footer", "Footer"),
            ])
    }

    /// Random edits: inserts, deletes, moves within and across sections, updates, emptying
    /// and refilling a section, nested carousel edits, status changes.
    mutating func mutate(_ tree: ViewNode) -> ViewNode {
        guard case .stack(let axis, var children) = tree.kind, case .module(var frame) = children[0].kind,
            case .list(let layout, var sections) = frame.content.kind
        else { return tree }
        for _ in 0..<Int.random(in: 1...6, using: &random) {
            let s = Int.random(in: 0..<sections.count, using: &random)
            switch Int.random(in: 0..<8, using: &random) {
            case 0: sections[s].rows.insert(row(), at: Int.random(in: 0...sections[s].rows.count, using: &random))
            case 1 where !sections[s].rows.isEmpty: sections[s].rows.remove(at: Int.random(in: 0..<sections[s].rows.count, using: &random))
            case 2 where !sections[s].rows.isEmpty:
                let moved = sections[s].rows.remove(at: Int.random(in: 0..<sections[s].rows.count, using: &random))
                let t = Int.random(in: 0..<sections.count, using: &random)
                sections[t].rows.insert(moved, at: Int.random(in: 0...sections[t].rows.count, using: &random))
            case 3 where !sections[s].rows.isEmpty:
                let r = Int.random(in: 0..<sections[s].rows.count, using: &random)
                if case .stack(let rowAxis, var rowChildren) = sections[s].rows[r].kind {
                    rowChildren[1].kind = .button(title: "Liked", event: EventDescriptor("like"), style: .primary)
                    sections[s].rows[r].kind = .stack(axis: rowAxis, children: rowChildren)
                }
            case 4: sections[s].rows = sections[s].rows.isEmpty ? (0..<5).map { _ in row() } : []
            case 5: sections[s].header = "Header \(Int.random(in: 0..<100, using: &random))"
            case 6 where !sections[s].rows.isEmpty:
                // Edit a nested carousel in place.
                let r = Int.random(in: 0..<sections[s].rows.count, using: &random)
                if case .stack(let rowAxis, var rowChildren) = sections[s].rows[r].kind, rowChildren.count == 3,
                    case .list(let carouselLayout, var cards) = rowChildren[2].kind
                {
                    cards[0].rows.insert(.text(id("card"), "New card"), at: 0)
                    if cards[0].rows.count > 2 { cards[0].rows.swapAt(1, cards[0].rows.count - 1) }
                    rowChildren[2].kind = .list(layout: carouselLayout, sections: cards)
                    sections[s].rows[r].kind = .stack(axis: rowAxis, children: rowChildren)
                }
            default: sections.shuffle(using: &random)
            }
        }
        frame.content.kind = .list(layout: layout, sections: sections)
        frame.status = Bool.random(using: &random) ? .ready : .loading
        children[0].kind = .module(frame)
        return ViewNode(id: tree.id, kind: .stack(axis: axis, children: children))
    }
}

@Suite struct ViewTreeDiffTests {
    func roundTrip(_ old: ViewNode, _ new: ViewNode) throws -> ViewTreeDiff {
        let diff = ViewTreeDiff(from: old, to: new)
        let tree = PatchableTree(old)
        try tree.apply(diff.patches)
        #expect(tree.root == new, "patches: \(diff.patches)")
        return diff
    }

    @Test(arguments: 0..<300)
    func applyingThePatchesGivesTheNewTreeExactly(seed: Int) throws {
        var generator = TreeGenerator(random: SeededRandom(seed: UInt64(seed)))
        var tree = generator.tree()
        for _ in 0..<3 {
            let next = generator.mutate(tree)
            let diff = try roundTrip(tree, next)
            #expect(diff.diagnostics.isEmpty)
            tree = next
        }
    }

    /// The walk for trees of the same shape gives exactly what matching by id gives, and
    /// leaves every other pair (rows moved, added, removed, an id used twice) to it.
    @Test(arguments: 0..<300)
    func theSameShapeWalkAgreesWithMatchingByID(seed: Int) throws {
        var generator = TreeGenerator(random: SeededRandom(seed: UInt64(seed)))
        let tree = generator.tree()
        // Same shape: properties only (a like, a header, a status).
        var edited = tree
        for node in tree.allNodes where Bool.random(using: &generator.random) {
            if case .button = node.kind {
                let liked = ViewNode.button(node.id, title: "Liked", sends: EventDescriptor("like"), style: .primary)
                let path = try #require(tree.path(to: node.id))
                edited.replace(at: path[...], with: liked)
            }
        }
        for (old, new) in [(tree, edited), (tree, generator.mutate(tree)), (tree, tree)] {
            let walked = ViewTreeDiff(from: old, to: new)
            let matched = ViewTreeDiff(matchingByIDFrom: old, to: new)
            #expect(walked.patches == matched.patches)
            #expect(walked.diagnostics == matched.diagnostics)
            let sameShape = ViewTreeDiff.updatesOfSameShape(.node(old), .node(new)) != nil
            let onlyUpdates = matched.patches.allSatisfy { if case .update = $0 { true } else { false } }
            #expect(!sameShape || onlyUpdates, "the walk answers only when properties alone changed")
        }
        #expect(ViewTreeDiff.updatesOfSameShape(.node(tree), .node(edited)) != nil, "a pair of the same shape is walked")
    }

    @Test func theSameShapeWalkLeavesRepeatedIDsAndLargeTreesToMatchingByID() throws {
        let repeated = ViewNode.stack("s", [.text("a", "1"), .text("a", "2")])
        let changed = ViewNode.stack("s", [.text("a", "1"), .text("a", "3")])
        #expect(ViewTreeDiff.updatesOfSameShape(.node(repeated), .node(changed)) == nil)
        #expect(ViewTreeDiff(from: repeated, to: changed).diagnostics == ViewTreeDiff(matchingByIDFrom: repeated, to: changed).diagnostics)
        #expect(!ViewTreeDiff(from: repeated, to: changed).diagnostics.isEmpty)
        // Ids are compared while few and hashed past sixteen: a repeat is found either way.
        for (count, repeatedAt) in [(20, 19), (40, 39), (40, 10)] {
            let ids = (0..<count).map { $0 == repeatedAt ? NodeID("t2") : NodeID("t\($0)") }
            let many = ViewNode.stack("s", ids.map { ViewNode.text($0, "1") })
            let manyChanged = ViewNode.stack("s", ids.map { ViewNode.text($0, $0 == "t5" ? "2" : "1") })
            #expect(ViewTreeDiff.updatesOfSameShape(.node(many), .node(manyChanged)) == nil, "\(count) elements, a repeat at \(repeatedAt)")
            let unique = ViewNode.stack("s", (0..<count).map { ViewNode.text(NodeID("t\($0)"), "1") })
            let uniqueChanged = ViewNode.stack("s", (0..<count).map { ViewNode.text(NodeID("t\($0)"), $0 == 5 ? "2" : "1") })
            #expect(ViewTreeDiff.updatesOfSameShape(.node(unique), .node(uniqueChanged)) == [.update("t5", ElementProperties(kind: .text("2", role: .body)))])
        }

        let rows = (0..<ViewTreeDiff.sameShapeBudget).map { ViewNode.text(NodeID("r\($0)"), "\($0)") }
        var edited = rows
        edited[3] = .text("r3", "changed")
        let long = ViewNode.list("l", sections: [.init(id: "s", rows: rows)])
        let longEdited = ViewNode.list("l", sections: [.init(id: "s", rows: edited)])
        #expect(ViewTreeDiff.updatesOfSameShape(.node(long), .node(longEdited)) == nil, "past the budget, matching by id answers")
        #expect(try roundTrip(long, longEdited).patches == [.update("r3", ElementProperties(kind: .text("changed", role: .body)))])
    }

    @Test func aChangedLikeIsOneUpdate() throws {
        let old = ViewNode.list("l", sections: [.init(id: "s", rows: (0..<1000).map { .text("r\($0)", "Likes: \($0)") })])
        var rows = (0..<1000).map { ViewNode.text("r\($0)", "Likes: \($0)") }
        rows[7] = .text("r7", "Likes: 8")
        let diff = try roundTrip(old, .list("l", sections: [.init(id: "s", rows: rows)]))
        #expect(diff.patches == [.update("r7", ElementProperties(kind: .text("Likes: 8", role: .body)))])
    }

    @Test func aRowMovingToAnotherSectionIsOneMove() throws {
        let a = ViewNode.text("a", "A")
        let b = ViewNode.text("b", "B")
        let c = ViewNode.text("c", "C")
        let old = ViewNode.list("l", sections: [.init(id: "s1", rows: [a, b]), .init(id: "s2", rows: [c])])
        let new = ViewNode.list("l", sections: [.init(id: "s1", rows: [a]), .init(id: "s2", rows: [b, c])])
        #expect(try roundTrip(old, new).patches == [.move("b", parent: "s2", index: 0)])
    }

    @Test func aListGoingEmptyAndFull() throws {
        let full = ViewNode.list("l", sections: [.init(id: "s", rows: (0..<20).map { .text(NodeID("r\($0)"), "\($0)") })])
        let empty = ViewNode.list("l", sections: [.init(id: "s", rows: [])])
        #expect(try roundTrip(full, empty).patches.count == 20)
        #expect(try roundTrip(empty, full).patches.count == 20)
    }

    @Test func aNestedCarouselUpdatesInPlace() throws {
        func row(_ cards: [String]) -> ViewNode {
            .stack(
                "row", axis: .horizontal,
                [
                    .text("title", "Row"),
                    .list("carousel", layout: .grid(columns: 3), sections: [.init(id: "cards", rows: cards.map { .text(NodeID($0), $0) })]),
                ])
        }
        let old = ViewNode.list("l", sections: [.init(id: "s", rows: [row(["c1", "c2", "c3"])])])
        let new = ViewNode.list("l", sections: [.init(id: "s", rows: [row(["c3", "c1", "c4"])])])
        let patches = try roundTrip(old, new).patches
        #expect(
            patches.allSatisfy { patch in
                if case .delete("row") = patch { return false }
                if case .insert(let element, _, _) = patch { return element.id == "c4" }
                return true
            }, "the row stays; only cards change: \(patches)")
    }

    @Test func duplicateIdsGetADiagnosticAndDeterministicHandling() throws {
        let old = ViewNode.list("l", sections: [.init(id: "s", rows: [.text("dup", "1"), .text("dup", "2"), .text("x", "x")])])
        let new = ViewNode.list("l", sections: [.init(id: "s", rows: [.text("dup", "2"), .text("x", "x"), .text("dup", "3")])])
        let diff = try roundTrip(old, new)
        #expect(diff.diagnostics == ["The id 'dup' is used more than once; ids must be unique in a tree. Its container is replaced whole."])
        #expect(ViewTreeDiff(from: old, to: new).patches == diff.patches, "deterministic")
        #expect(diff.patches.first == .delete("s"))
    }

    @Test func aChangedRootOrKindIsReplaced() throws {
        _ = try roundTrip(.text("a", "A"), .stack("b", []))
        _ = try roundTrip(.stack("a", [.text("x", "X")]), .stack("a", [.stack("x", [])]))
    }

    @Test func applyingToTheWrongTreeFailsClearly() {
        let tree = PatchableTree(.stack("a", []))
        #expect(throws: PatchableTree.PatchError.self) { try tree.apply([.delete("missing")]) }
    }
}

@Suite struct ViewPatchCodingTests {
    @Test func patchesRoundTripThroughJSON() throws {
        var generator = TreeGenerator(random: SeededRandom(seed: 99))
        let old = generator.tree()
        let new = generator.mutate(generator.mutate(old))
        let patches = ViewTreeDiff(from: old, to: new).patches
        let data = try JSONEncoder().encode(patches)
        #expect(try JSONDecoder().decode([ViewPatch].self, from: data) == patches)
    }

    @Test func anUpdateIsCompact() throws {
        let patch = ViewPatch.update("blogs/blog.7.likes", ElementProperties(kind: .text("Likes: 13", role: .caption)))
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        #expect(
            String(decoding: try encoder.encode(patch), as: UTF8.self)
                == #"{"id":"blogs\/blog.7.likes","op":"update","properties":{"role":"caption","text":"Likes: 13","type":"text"}}"#)
        let section = ViewPatch.update("s", ElementProperties(kind: .section(header: "H", footer: nil, firstRowIndex: 50, totalRowCount: 1000)))
        #expect(try JSONDecoder().decode(ViewPatch.self, from: encoder.encode(section)) == section)
    }
}
