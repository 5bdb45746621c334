import Scenery
import Testing

/// An id is its text, however it was made: from text, qualified by a module, or changed.
@Suite struct NodeIDTests {
    @Test func idsWithTheSameTextAreEqualAndHashAlikeHoweverTheyWereMade() {
        let pairs: [(NodeID, NodeID)] = [
            (NodeID("blogs/blog.26.like"), NodeID("blog.26.like").qualified(by: "blogs")),
            (NodeID("a/b/c"), NodeID("b/c").qualified(by: "a")),
            (NodeID("m/n/row.1"), NodeID("row.1").qualified(by: "m/n")),
            (NodeID("plain"), Self.renamed(NodeID("x/y"), to: "plain")),
        ]
        for (made, other) in pairs {
            #expect(made == other && made.rawValue == other.rawValue, "\(made) and \(other)")
            #expect(made.hashValue == other.hashValue, "\(made)")
            #expect(Set([made]).contains(other))
        }
    }

    static func renamed(_ id: NodeID, to text: String) -> NodeID {
        var id = id
        id.rawValue = text
        return id
    }

    @Test func idsWithDifferentTextsDiffer() {
        let ids: [NodeID] = ["blogs/blog.26", "blogs/blog.2", "blog.26", "blogs/blog.26/x", NodeID("blog.26").qualified(by: "drafts"), "blogs"]
        #expect(Set(ids).count == ids.count)
        for (index, id) in ids.enumerated() {
            for other in ids[(index + 1)...] { #expect(id != other, "\(id) and \(other)") }
        }
    }
}
