import Scenery
import SceneryTesting

/// Small random view trees and random changes to them, for checking what travels from a
/// scene to a page: texts and forms (an editor with a field and an error) under the root,
/// in stacks and in the sections of lists, moving between all of them.
struct RandomTree {
    struct Item {
        var id: String
        var text: String
        var isEditor: Bool
        var error: String?
    }

    /// A stack (one group of items) or a list (a group per section).
    struct Box {
        var id: String
        var isList: Bool
        var groups: [[Item]]
    }

    var top: [Item] = []
    var boxes: [Box] = []
    private var next = 0

    /// The tree as a scene renders it.
    var node: ViewNode {
        func node(_ item: Item) -> ViewNode {
            guard item.isEditor else { return .text(NodeID(item.id), item.text) }
            return .form(
                NodeID(item.id), submit: .init(title: "Save", sends: "save"), error: item.error,
                [.textField(NodeID("\(item.id).title"), TextField(name: "title", label: "Title", value: item.text))])
        }
        let boxes = boxes.map { box -> ViewNode in
            guard box.isList else { return .stack(NodeID(box.id), box.groups[0].map(node)) }
            return .list(
                NodeID(box.id), sections: box.groups.enumerated().map { .init(id: NodeID("\(box.id).s\($0.offset)"), rows: $0.element.map(node)) })
        }
        return .stack("root", top.map(node) + boxes)
    }

    private mutating func newItem(using random: inout SeededRandom) -> Item {
        next += 1
        return Item(id: "i\(next)", text: "t\(Int.random(in: 0..<3, using: &random))", isEditor: Bool.random(using: &random), error: nil)
    }

    /// A tree of a few stacks and lists with a few items each.
    static func make(using random: inout SeededRandom) -> RandomTree {
        var tree = RandomTree()
        for _ in 0..<Int.random(in: 0...2, using: &random) { tree.top.append(tree.newItem(using: &random)) }
        for box in 0..<Int.random(in: 1...3, using: &random) {
            let isList = Bool.random(using: &random)
            var groups: [[Item]] = []
            for _ in 0..<(isList ? Int.random(in: 1...2, using: &random) : 1) {
                var group: [Item] = []
                for _ in 0..<Int.random(in: 0...4, using: &random) { group.append(tree.newItem(using: &random)) }
                groups.append(group)
            }
            tree.boxes.append(Box(id: "b\(box)", isList: isList, groups: groups))
        }
        return tree
    }

    /// Where items can be: the root's own items (-1) or a box's group.
    private var places: [(box: Int, group: Int)] {
        [(-1, 0)] + boxes.indices.flatMap { box in boxes[box].groups.indices.map { (box, $0) } }
    }

    private func items(at place: (box: Int, group: Int)) -> [Item] {
        place.box < 0 ? top : boxes[place.box].groups[place.group]
    }

    private mutating func setItems(_ items: [Item], at place: (box: Int, group: Int)) {
        if place.box < 0 { top = items } else { boxes[place.box].groups[place.group] = items }
    }

    /// One to four random changes: an item's text or error, a move anywhere, a delete, an insert.
    static func change(_ old: RandomTree, using random: inout SeededRandom) -> RandomTree {
        var tree = old
        for _ in 0..<Int.random(in: 1...4, using: &random) {
            let occupied = tree.places.filter { !tree.items(at: $0).isEmpty }
            let target = tree.places.randomElement(using: &random)!
            var into = tree.items(at: target)
            switch (Int.random(in: 0..<4, using: &random), occupied.randomElement(using: &random)) {
            case (0, let from?):
                var items = tree.items(at: from)
                let index = Int.random(in: items.indices, using: &random)
                items[index].text += "!"
                if items[index].isEditor { items[index].error = items[index].error == nil ? "Changed elsewhere." : nil }
                tree.setItems(items, at: from)
            case (1, let from?):
                var items = tree.items(at: from)
                var item = items.remove(at: Int.random(in: items.indices, using: &random))
                if Bool.random(using: &random) {
                    // Moves and changes at once, as the draft editor did.
                    item.text += "?"
                    if item.isEditor { item.error = item.error == nil ? "Changed elsewhere." : nil }
                }
                tree.setItems(items, at: from)
                into = tree.items(at: target)
                into.insert(item, at: Int.random(in: 0...into.count, using: &random))
                tree.setItems(into, at: target)
            case (2, let from?):
                var items = tree.items(at: from)
                items.remove(at: Int.random(in: items.indices, using: &random))
                tree.setItems(items, at: from)
            default:
                into.insert(tree.newItem(using: &random), at: Int.random(in: 0...into.count, using: &random))
                tree.setItems(into, at: target)
            }
        }
        return tree
    }
}
