import Foundation
import Scenery

@testable import SceneryServer

/// A page's elements by id, as the page script's rules change them when it applies the
/// planner's operations: what a browser holds after an update, for checking that a plan
/// adds up to the scene's new tree (every element present, in its place, none lost).
///
/// Elements are the view tree's (nodes and list sections); the HTML an operation carries is
/// read for its element's id only, and stands for that element of the new tree.
struct PageModel: Equatable {
    private var children: [NodeID: [NodeID]] = [:]
    private var parents: [NodeID: NodeID] = [:]
    private(set) var root: NodeID

    /// The page as `tree` renders it.
    init(_ tree: ViewNode) {
        root = tree.id
        add(.node(tree), under: nil)
    }

    /// What went wrong applying operations: each an operation the page script would skip
    /// (an element it cannot find), which leaves the page otherwise than planned.
    private(set) var problems: [String] = []

    private mutating func add(_ element: ViewElement, under parent: NodeID?) {
        children[element.id] = element.children.map(\.id)
        if let parent { parents[element.id] = parent }
        for child in element.children { add(child, under: element.id) }
    }

    private mutating func forget(_ id: NodeID) {
        for child in children[id] ?? [] { forget(child) }
        children[id] = nil
        parents[id] = nil
    }

    private mutating func unlink(_ id: NodeID) {
        guard let parent = parents[id] else { return }
        children[parent]?.removeAll { $0 == id }
        parents[id] = nil
    }

    private mutating func link(_ id: NodeID, under parent: NodeID, at index: Int) {
        var siblings = children[parent] ?? []
        siblings.insert(id, at: min(max(index, 0), siblings.count))
        children[parent] = siblings
        parents[id] = parent
    }

    /// The id of the element an operation's HTML renders: its first `id` attribute.
    private static func id(in html: String) -> NodeID? {
        guard let start = html.range(of: "id=\"")?.upperBound, let end = html[start...].firstIndex(of: "\"") else { return nil }
        let escaped = String(html[start..<end])
        return NodeID(
            escaped.replacingOccurrences(of: "&quot;", with: "\"").replacingOccurrences(of: "&#39;", with: "'").replacingOccurrences(of: "&lt;", with: "<")
                .replacingOccurrences(of: "&gt;", with: ">").replacingOccurrences(of: "&amp;", with: "&"))
    }

    /// Applies operations as the page script does, taking each HTML's element from `new`.
    mutating func apply(_ operations: [DOMPlanner.Operation], from new: ViewNode) {
        let tree = PatchableTree(new)
        var detached: Set<NodeID> = []
        for operation in operations {
            switch operation {
            case .detach(let id):
                guard children[id] != nil, parents[id] != nil else {
                    problems.append("detach of \(id), which the page lacks")
                    continue
                }
                unlink(id)
                detached.insert(id)
            case .remove(let id):
                guard children[id] != nil else { continue }  // the script skips it: nothing lost
                unlink(id)
                forget(id)
            case .insert(let parent, let index, let html):
                guard children[parent] != nil, let id = Self.id(in: html), let element = tree.element(id) else {
                    problems.append("insert into \(parent), which the page lacks, or of HTML without an element of the new tree")
                    continue
                }
                add(element, under: nil)
                link(id, under: parent, at: index)
            case .attach(let id, let parent, let index):
                guard detached.remove(id) != nil, children[parent] != nil else {
                    problems.append("attach of \(id) under \(parent): not detached, or no such parent")
                    continue
                }
                link(id, under: parent, at: index)
            case .replace(let id, let html):
                guard children[id] != nil, let element = tree.element(id), Self.id(in: html) == id else {
                    problems.append("replace of \(id), which the page lacks")
                    continue
                }
                let parent = parents[id]
                let index = parent.flatMap { children[$0]?.firstIndex(of: id) } ?? 0
                unlink(id)
                forget(id)
                add(element, under: nil)
                if let parent { link(id, under: parent, at: index) } else { root = id }
            case .window:
                continue
            }
        }
        for id in detached { problems.append("\(id) was detached and never attached") }
    }

    static func == (lhs: PageModel, rhs: PageModel) -> Bool {
        lhs.root == rhs.root && lhs.children == rhs.children && lhs.parents == rhs.parents
    }
}
